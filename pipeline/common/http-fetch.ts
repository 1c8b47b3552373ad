/**
 * HTTP GET with retries, exponential backoff and optional byte ranges, for every pipeline step
 * that reads upstream over the network (GeoNames dumps, NOAA GRIB byte ranges, report cycles).
 * A truncated body (connection dropped mid-response) is detected against Content-Length and
 * retried like any other failure. Every byte received is reported (`onBytes`), those of failed
 * attempts and of a whole body sent in place of a range included: what the network carried.
 */
import type { Logger } from "../../datasets/common/log.ts";

/** What identifies one version of an upstream file (HTTP validators). */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

export function validatorsOf(response: Response): Validators {
  const v: Validators = {};
  const etag = response.headers.get("etag");
  const lastModified = response.headers.get("last-modified");
  if (etag) v.etag = etag;
  if (lastModified) v.lastModified = lastModified;
  return v;
}

export interface FetchOptions {
  /** Inclusive byte range [first, last]; `last` undefined means to the end. */
  range?: { first: number; last?: number };
  /** Attempts in all (default 4). */
  attempts?: number;
  /** Per-attempt time limit, milliseconds (default 60 s). */
  timeoutMs?: number;
  /** First backoff delay, milliseconds, doubled each retry (default 500). */
  backoffMs?: number;
  logger?: Logger;
  /** Called with the size of every chunk of body received, by every attempt. */
  onBytes?: (bytes: number) => void;
}

/** A body and the validators of the response that carried it. */
export interface Fetched {
  body: Buffer;
  validators: Validators;
}

export class HttpFetchError extends Error {
  override readonly name = "HttpFetchError";
  constructor(
    readonly url: string,
    readonly status: number | undefined,
    message: string,
  ) {
    super(`${url}: ${message}`);
  }
}

/** Statuses worth retrying: timeouts, throttling, server faults. */
export function retriable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** The body, chunk by chunk, so that the bytes of a connection dropped mid-body are counted. */
async function readBody(response: Response, onBytes: FetchOptions["onBytes"]): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    chunks.push(chunk);
    onBytes?.(chunk.byteLength);
  }
  return Buffer.concat(chunks);
}

async function attempt(url: string, options: FetchOptions): Promise<Fetched> {
  const headers: Record<string, string> = { "User-Agent": "geodata-pipeline" };
  if (options.range) headers.Range = `bytes=${options.range.first}-${options.range.last ?? ""}`;
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(options.timeoutMs ?? 60_000) });
  if (options.range ? response.status !== 206 && response.status !== 200 : !response.ok) {
    await response.body?.cancel();
    throw new HttpFetchError(url, response.status, `HTTP ${response.status}`);
  }
  const validators = validatorsOf(response);
  const body = await readBody(response, options.onBytes);
  const declared = response.headers.get("content-length");
  if (declared !== null && Number(declared) !== body.byteLength) {
    // No status: a dropped connection is retried, whatever the status line said.
    throw new HttpFetchError(url, undefined, `expected ${declared} bytes, got ${body.byteLength} (connection dropped)`);
  }
  if (options.range && response.status === 200) {
    // The server ignored the Range header: cut the range out of the whole body.
    return { body: body.subarray(options.range.first, options.range.last === undefined ? undefined : options.range.last + 1), validators };
  }
  if (options.range?.last !== undefined) {
    const expected = options.range.last - options.range.first + 1;
    if (body.byteLength !== expected) {
      throw new HttpFetchError(url, response.status, `expected ${expected} bytes of range, got ${body.byteLength}`);
    }
  }
  return { body, validators };
}

/**
 * A backoff delay with "equal jitter": half fixed, half random, so that many clients retrying the
 * same fault do not come back in step.
 */
export function withJitter(delayMs: number): number {
  return Math.round(delayMs / 2 + Math.random() * (delayMs / 2));
}

/** How often and how patiently to retry. */
export interface RetryOptions {
  attempts?: number;
  backoffMs?: number;
  logger?: FetchOptions["logger"];
  /** Errors that retrying cannot mend (a file of the wrong size or checksum): thrown at once. */
  isFinal?: (err: unknown) => boolean;
}

/**
 * Runs `run` (attempt number from 1) until it succeeds, retrying transient failures: network
 * errors and retriable HTTP statuses, with exponential backoff and jitter. `what` names the
 * operation in the retry log lines ("fetch", "download").
 */
export async function withRetries<T>(url: string, options: RetryOptions, what: string, run: (attempt: number) => Promise<T>): Promise<T> {
  const attempts = options.attempts ?? 4;
  let delay = options.backoffMs ?? 500;
  let lastError: unknown;
  for (let i = 1; i <= attempts; i++) {
    try {
      return await run(i);
    } catch (err) {
      lastError = err;
      const status = err instanceof HttpFetchError ? err.status : undefined;
      if ((status !== undefined && !retriable(status)) || options.isFinal?.(err)) throw err;
      if (i < attempts) {
        const waitMs = withJitter(delay);
        options.logger?.warn(`${what} failed, retrying`, { url, attempt: i, attempts, delayMs: waitMs, reason: (err as Error).message });
        await new Promise((r) => setTimeout(r, waitMs));
        delay *= 2;
      }
    }
  }
  throw lastError instanceof Error ? lastError : new HttpFetchError(url, undefined, String(lastError));
}

/** GETs a URL (or a byte range of it), retrying transient failures; with the response's validators. */
export function fetchWithValidators(url: string, options: FetchOptions = {}): Promise<Fetched> {
  return withRetries(url, options, "fetch", () => attempt(url, options));
}

/** GETs a URL (or a byte range of it), retrying transient failures. */
export async function fetchWithRetry(url: string, options: FetchOptions = {}): Promise<Buffer> {
  return (await fetchWithValidators(url, options)).body;
}
