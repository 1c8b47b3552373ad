/**
 * One JSON line per request: method, route, path and query (with only the parameters the API
 * defines kept verbatim), status, duration. The X-Api-Key header is never read here, so no key
 * can reach the log; an unknown query parameter keeps its name but not its value, in case a
 * client put a secret there.
 */
import { isoNow } from "../../datasets/common/log.ts";
import { lineBatch } from "./line-batch.ts";

const LOGGED_PARAMS = new Set(["lat", "lon", "q", "id", "limit", "offset"]);

/**
 * The first `max` UTF-16 units of a value, never ending in half a surrogate pair (which
 * encodeURIComponent would throw on), and with any lone surrogate made U+FFFD.
 */
export function cutOnCodePoints(value: string, max: number): string {
  let end = Math.min(value.length, max);
  const last = value.charCodeAt(end - 1);
  if (end < value.length && last >= 0xd800 && last <= 0xdbff) end--;
  // String.prototype.toWellFormed is in every supported node (20+), but in TypeScript's ES2024 lib only.
  return (value.slice(0, end) as string & { toWellFormed(): string }).toWellFormed();
}

/**
 * A target whose path is plain and whose query gives only the API's parameters, each once at most
 * per pair, in characters encodeURIComponent leaves alone (and ':') and within the lengths kept: the
 * redaction would give it back unchanged, so it is returned as it is (nearly every request).
 */
const KEPT_AS_IS = /^\/[A-Za-z0-9_.~!*'()/-]{0,511}(?:\?(?:lat|lon|q|id|limit|offset)=[A-Za-z0-9_.~!*'():-]{0,256}(?:&(?:lat|lon|q|id|limit|offset)=[A-Za-z0-9_.~!*'():-]{0,256})*)?$/;

export function redactTarget(url: string): string {
  if (KEPT_AS_IS.test(url)) return url;
  const q = url.indexOf("?");
  const path = cutOnCodePoints(q < 0 ? url : url.slice(0, q), 512);
  if (q < 0) return path;
  const query = url.slice(q + 1);
  // Percent-escapes and '+' need URLSearchParams' decoding; plain queries (nearly all) are split here.
  const pairs: Iterable<[string, string]> = /[%+]/.test(query) ? new URLSearchParams(query) : plainPairs(query);
  const parts: string[] = [];
  for (const [name, value] of pairs) {
    const safeName = encodeURIComponent(cutOnCodePoints(name, 64));
    parts.push(LOGGED_PARAMS.has(name) ? `${safeName}=${loggedValue(value)}` : `${safeName}=[redacted]`);
  }
  return parts.length ? `${path}?${parts.join("&")}` : path;
}

/**
 * A kept parameter's value as logged: percent-encoded, but for ':', which a query may hold as it
 * is (RFC 3986) and every place id has (`gn:2950159`).
 */
function loggedValue(value: string): string {
  return encodeURIComponent(cutOnCodePoints(value, 256)).replaceAll("%3A", ":");
}

/** name=value pairs of a query without escapes, as URLSearchParams gives them (empty parts skipped). */
function plainPairs(query: string): [string, string][] {
  const out: [string, string][] = [];
  for (const part of query.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    out.push(eq < 0 ? [part, ""] : [part.slice(0, eq), part.slice(eq + 1)]);
  }
  return out;
}

/** The access stream: one JSON line per request (`logAccess`). */
export interface AccessLog {
  /** Takes one finished line (no newline). */
  readonly sink: (line: string) => void;
}

/**
 * The access stream: stdout in production, or `sink`; written at every GEODATA_LOG_LEVEL (the
 * level filters the server's diagnostics, never the request lines). Stdout gets the lines in
 * batches, one write per event-loop turn (line-batch.ts).
 */
export function createAccessLogger(sink?: (line: string) => void): AccessLog {
  if (!sink) {
    const batch = lineBatch((chunk) => process.stdout.write(chunk));
    process.on("exit", batch.flush);
    sink = batch.push;
  }
  return { sink };
}

export interface AccessRecord {
  method: string;
  url: string;
  route: string;
  status: number;
  durationMs: number;
  bytes: number;
  remote?: string;
}

/**
 * Writes the request's line: the fields of a Logger line (datasets/common/log.ts: time, level,
 * msg, then the stream's `component`) followed by the record's, in that order, as
 * JSON.stringify would give that object. Written as text because it runs on every request: the
 * object, its copy and the generic serialization cost about twice as much (1.3 µs against 0.7).
 */
export function logAccess(log: AccessLog, r: AccessRecord): void {
  const remote = r.remote === undefined ? "" : `,"remote":${jsonString(r.remote)}`;
  log.sink(
    `{"time":"${isoNow()}","level":"info","msg":"request","component":"access","method":${jsonString(r.method.slice(0, 16))},"path":${jsonString(redactTarget(r.url))},"route":${jsonString(r.route)},"status":${r.status},"durationMs":${Math.round(r.durationMs * 1000) / 1000},"bytes":${r.bytes}${remote}}`,
  );
}

/** Printable ASCII other than `"` and `\`: JSON.stringify would only add the quotes. */
const JSON_PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** JSON.stringify of a string, without its escaping pass for the plain strings of nearly every line. */
function jsonString(s: string): string {
  return JSON_PLAIN.test(s) ? `"${s}"` : JSON.stringify(s);
}

/** An access stream that drops every line (tests, benches). */
export const silentAccessLog: AccessLog = { sink: () => {} };
