/**
 * One JSON line per request: method, route, path and query (with only the parameters the API
 * defines kept verbatim), status, duration. The X-Api-Key header is never read here, so no key
 * can reach the log; an unknown query parameter keeps its name but not its value, in case a
 * client put a secret there.
 */
import { createLogger, type Logger } from "../../datasets/common/log.ts";
import { lineBatch } from "./line-batch.ts";

const LOGGED_PARAMS = new Set(["lat", "lon", "q", "id", "limit", "offset"]);

export function redactTarget(url: string): string {
  const q = url.indexOf("?");
  const path = (q < 0 ? url : url.slice(0, q)).slice(0, 512);
  if (q < 0) return path;
  const query = url.slice(q + 1);
  // Percent-escapes and '+' need URLSearchParams' decoding; plain queries (nearly all) are split here.
  const pairs: Iterable<[string, string]> = /[%+]/.test(query) ? new URLSearchParams(query) : plainPairs(query);
  const parts: string[] = [];
  for (const [name, value] of pairs) {
    const safeName = encodeURIComponent(name.slice(0, 64));
    parts.push(LOGGED_PARAMS.has(name) ? `${safeName}=${encodeURIComponent(value.slice(0, 256))}` : `${safeName}=[redacted]`);
  }
  return parts.length ? `${path}?${parts.join("&")}` : path;
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

/**
 * The access stream: its own logger (stdout in production, `component: "access"`), written at
 * every GEODATA_LOG_LEVEL. The level filters the server's diagnostics, never the request lines.
 * Stdout gets the lines in batches, one write per event-loop turn (line-batch.ts).
 */
export function createAccessLogger(sink?: (line: string) => void): Logger {
  if (!sink) {
    const batch = lineBatch((chunk) => process.stdout.write(chunk));
    process.on("exit", batch.flush);
    sink = batch.push;
  }
  return createLogger({ minLevel: "debug", base: { component: "access" }, sink });
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

export function logAccess(logger: Logger, r: AccessRecord): void {
  logger.info("request", {
    method: r.method.slice(0, 16),
    path: redactTarget(r.url),
    route: r.route,
    status: r.status,
    durationMs: Math.round(r.durationMs * 1000) / 1000,
    bytes: r.bytes,
    remote: r.remote,
  });
}
