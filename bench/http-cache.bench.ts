/**
 * HTTP caching and rate limiting on the in-process app (no socket): a conditional request that
 * ends in a 304 against the full 200 it replaces (both with Accept-Encoding br, as browsers send),
 * on a small answer (elevation) and a large one (20 search results, compressed); and the cost of
 * the ETag digest, of a rate-limit token, of the key check and of the access line against the
 * search 200, measured in the same run.
 * On the test data (.cache/test-data, built if missing).
 *   npm run bench -- http-cache
 */
import { Bench } from "tinybench";
import { readConfig } from "../datasets/common/config.ts";
import { silentLogger } from "../datasets/common/log.ts";
import { loadDatasets } from "../server/datasets/registry.ts";
import { LOADERS } from "../server/loaders.ts";
import { ENDPOINTS } from "../server/endpoints/routes.ts";
import { createApp, type AppRequest } from "../server/http/app.ts";
import { logAccess, silentAccessLog } from "../server/http/access-log.ts";
import { KeyChecker } from "../server/http/auth.ts";
import { cacheControl, identityTag, tagDigest, tagPrefix } from "../server/http/cache.ts";
import { RateLimiter } from "../server/http/rate-limit.ts";
import { buildOpenApi } from "../server/openapi/document.ts";
import { ensureDefaultData } from "../test/helpers/default-data.ts";

// --- Setup (untimed) ------------------------------------------------------------------------------
const KEY = "bench-key-0123456789abcdef";
const config = readConfig({ GEODATA_DATA_DIR: await ensureDefaultData(["places", "elevation"]) });
const registry = await loadDatasets(config, silentLogger, LOADERS);
const openapi = buildOpenApi(ENDPOINTS);
const app = createApp({ endpoints: ENDPOINTS, registry, keys: new KeyChecker([KEY]), openapi: () => openapi, logger: silentLogger });
const request = (url: string, extra: Record<string, string> = {}): AppRequest => ({
  method: "GET",
  url,
  headers: { "x-api-key": KEY, "accept-encoding": "gzip, deflate, br", ...extra },
  hasBody: false,
});
const cases = { elevation: "/elevation/point/2/json?lat=46.5&lon=8.0", search: "/geocode/search/2/json?q=Springfield&limit=20" };
const etags: Record<string, string> = {};
for (const [name, url] of Object.entries(cases)) {
  const first = await app(request(url));
  if (first.status !== 200) throw new Error(`${url}: expected 200, got ${first.status}`);
  etags[name] = first.headers.ETag!;
  const again = await app(request(url, { "if-none-match": etags[name]! }));
  if (again.status !== 304) throw new Error(`${url}: expected 304, got ${again.status}`);
  process.stdout.write(`${name}: 200 body ${first.body.byteLength} bytes (${first.headers["Content-Encoding"] ?? "identity"}), 304 body ${again.body.byteLength} bytes\n`);
}
const limiter = new RateLimiter({ requests: 1_000_000_000, windowSeconds: 60 });
const places = registry.list().filter((d) => d.name === "places");

// --- Timed ---------------------------------------------------------------------------------------
const bench = new Bench({ time: 2000, warmupTime: 500 });
for (const [name, url] of Object.entries(cases)) {
  bench.add(`${name}: 200 (baseline)`, async () => {
    await app(request(url));
  });
  bench.add(`${name}: 304 (If-None-Match)`, async () => {
    await app(request(url, { "if-none-match": etags[name]! }));
  });
}
const digest = tagDigest(tagPrefix("x", "/geocode/search/2/json", places), null);
bench.add("ETag (identityTag over the route's kept digest) and Cache-Control (cacheControl)", () => {
  identityTag(digest, "release", JSON.stringify({ q: "Springfield", limit: 20, offset: 0 }));
  cacheControl("release", new Date());
});
bench.add("rate-limit token (RateLimiter.take)", () => {
  limiter.take(KEY);
});
const keys = new KeyChecker([KEY, "other-key-0123456789"]);
bench.add("key check, two keys (KeyChecker.isValid)", () => {
  keys.isValid(KEY);
});
const accessRecord = { method: "GET", url: "/weather/point/2/json?lat=52.5213&lon=13.4049", route: "/weather/point/2/json", status: 200, durationMs: 0.1234, bytes: 181_234, remote: "127.0.0.1" };
bench.add("access line (logAccess)", () => {
  logAccess(silentAccessLog, accessRecord);
});
await bench.run();

// Medians: on a shared machine rare preemptions inflate the means.
const median = (n: string): number => {
  const t = bench.tasks.find((x) => x.name === n)!.result as { latency?: { p50: number } } | undefined;
  return t?.latency?.p50 ?? NaN;
};
const rows = bench.tasks.map((t) => {
  const r = t.result as { latency?: { mean: number; p50: number; p99: number } } | undefined;
  const base = t.name.startsWith("elevation") ? median("elevation: 200 (baseline)") : median("search: 200 (baseline)");
  return {
    task: t.name,
    "p50 µs": ((r?.latency?.p50 ?? NaN) * 1000).toFixed(1),
    "mean µs": ((r?.latency?.mean ?? NaN) * 1000).toFixed(1),
    "p99 µs": ((r?.latency?.p99 ?? NaN) * 1000).toFixed(1),
    "p50 x of its 200": ((r?.latency?.p50 ?? NaN) / base).toFixed(3),
  };
});
console.table(rows);
await registry.close();
