/**
 * Downloads one URL into a local file, for sources too large to hold in memory (GeoNames dumps):
 * conditional requests (If-None-Match / If-Modified-Since from the validators of the copy we
 * have), resume of a partial download by Range (If-Range, so a changed file starts over), retries
 * with exponential backoff and jitter (the retry rules of http-fetch.ts), byte progress as JSON
 * lines. The file appears at its final path only when complete (`<file>.part` until then).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { Logger } from "../../datasets/common/log.ts";
import { HttpFetchError, validatorsOf, withRetries, type Validators } from "./http-fetch.ts";
import { Progress } from "./progress.ts";

export interface DownloadOptions {
  /** Validators of the complete copy already at `file`: sent as a conditional request. */
  have?: Validators;
  attempts?: number;
  /** First backoff delay, milliseconds, doubled each retry (default 500), with jitter. */
  backoffMs?: number;
  /** Per-attempt time limit, milliseconds (default 30 min). */
  timeoutMs?: number;
  logger?: Logger;
}

export interface DownloadResult {
  /** `not-modified`: the server answered 304; `file` is the copy we had. */
  status: "fetched" | "not-modified";
  /** Bytes received over the network by every attempt. */
  bytesFetched: number;
  /** Attempts made (1 = no retry). */
  attempts: number;
  /** Whether some attempt continued a partial download with a Range request. */
  resumed: boolean;
  validators: Validators;
}

interface PartMeta extends Validators {
  url: string;
}

async function sizeOf(file: string): Promise<number> {
  return (await fs.stat(file).catch(() => undefined))?.size ?? 0;
}

async function readPartMeta(file: string, url: string): Promise<PartMeta | undefined> {
  try {
    const meta = JSON.parse(await fs.readFile(`${file}.part.json`, "utf8")) as PartMeta;
    return meta.url === url && (meta.etag || meta.lastModified) ? meta : undefined;
  } catch {
    return undefined;
  }
}

interface AttemptState {
  bytesFetched: number;
  resumed: boolean;
}

async function attempt(url: string, file: string, options: DownloadOptions, state: AttemptState): Promise<DownloadResult["status"] | Validators> {
  const part = `${file}.part`;
  const headers: Record<string, string> = { "User-Agent": "geodata-pipeline" };
  const have = options.have && (await sizeOf(file)) > 0 ? options.have : undefined;
  if (have?.etag) headers["If-None-Match"] = have.etag;
  if (have?.lastModified) headers["If-Modified-Since"] = have.lastModified;
  const partMeta = await readPartMeta(file, url);
  const partSize = partMeta ? await sizeOf(part) : 0;
  if (partMeta && partSize > 0) {
    headers.Range = `bytes=${partSize}-`;
    headers["If-Range"] = partMeta.etag ?? partMeta.lastModified!;
  }
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(options.timeoutMs ?? 30 * 60_000) });
  if (response.status === 304) {
    await response.body?.cancel();
    return "not-modified";
  }
  if (response.status !== 200 && response.status !== 206) {
    await response.body?.cancel();
    throw new HttpFetchError(url, response.status, `HTTP ${response.status}`);
  }
  const validators = validatorsOf(response);
  let offset = 0;
  if (response.status === 206) {
    const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.headers.get("content-range") ?? "");
    if (!range || Number(range[1]) !== partSize) {
      await response.body?.cancel();
      await fs.rm(`${file}.part.json`, { force: true });
      throw new HttpFetchError(url, undefined, `expected a range from byte ${partSize}, got Content-Range ${JSON.stringify(response.headers.get("content-range"))}`);
    }
    offset = partSize;
    state.resumed = true;
  }
  await fs.writeFile(`${file}.part.json`, JSON.stringify({ url, ...validators } satisfies PartMeta));
  const declared = response.headers.get("content-length");
  const expected = declared === null ? undefined : offset + Number(declared);
  const progress = options.logger ? new Progress(options.logger, `download ${url}`, expected, "bytes") : undefined;
  let received = offset;
  if (!response.body) throw new HttpFetchError(url, response.status, "no body");
  // 200 (or a server that ignored If-Range): start the part file over; 206: append to it. Each
  // chunk is written before the next is read, so a dropped connection leaves on disk every byte
  // received, and the next attempt asks only for the rest.
  const handle = await fs.open(part, offset > 0 ? "a" : "w");
  try {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      await handle.write(chunk);
      received += chunk.byteLength;
      state.bytesFetched += chunk.byteLength;
      progress?.set(received);
    }
  } finally {
    await handle.close();
  }
  if (expected !== undefined && received !== expected) {
    // No status: a dropped connection is retried (and resumed), whatever the status line said.
    throw new HttpFetchError(url, undefined, `expected ${expected} bytes, got ${received} (connection dropped)`);
  }
  progress?.finish({ resumedFrom: offset });
  await fs.rename(part, file);
  await fs.rm(`${file}.part.json`, { force: true });
  return validators;
}

/** Downloads `url` to `file` (directories created), retrying transient failures. */
export async function downloadToFile(url: string, file: string, options: DownloadOptions = {}): Promise<DownloadResult> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const state: AttemptState = { bytesFetched: 0, resumed: false };
  return withRetries(url, options, "download", async (i): Promise<DownloadResult> => {
    const outcome = await attempt(url, file, options, state);
    if (outcome === "not-modified") return { status: "not-modified", bytesFetched: state.bytesFetched, attempts: i, resumed: false, validators: options.have ?? {} };
    return { status: "fetched", bytesFetched: state.bytesFetched, attempts: i, resumed: state.resumed, validators: outcome as Validators };
  });
}
