/**
 * What a request costs inside the server, without the socket: the app (createApp, response cache
 * off, identity coding) called in process on the HTTP bench's mixes (bench/http-mixes.ts), CPU
 * time per request from process.cpuUsage (garbage collection included). This is the handler's work
 * W of docs/http.md; what the same request costs over HTTP is `npm run bench -- http`, and what the
 * bare server doing W µs of memory reads a request costs over HTTP is its `--bare-work W`.
 * `--hits`: cache hits instead: the response cache on (64 MiB), the mix's first 64 targets asked
 * once, then --targets requests cycling through them, each round.
 * On the test data (.cache/test-data, built if missing).
 *   npm run bench -- app-cost [--only search,SYNOP] [--targets 4000] [--rounds 3] [--hits]
 */
import { readConfig } from "../datasets/common/config.ts";
import { silentLogger } from "../datasets/common/log.ts";
import { loadDatasets } from "../server/datasets/registry.ts";
import { LOADERS } from "../server/loaders.ts";
import { ENDPOINTS } from "../server/endpoints/routes.ts";
import { createApp, type AppRequest } from "../server/http/app.ts";
import { KeyChecker } from "../server/http/auth.ts";
import { ResponseCache } from "../server/http/response-cache.ts";
import { buildOpenApi } from "../server/openapi/document.ts";
import { ensureDefaultData } from "../test/helpers/default-data.ts";
import { buildMixes, readPlaces, reportingStations } from "./http-mixes.ts";

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const TARGETS = Number(arg("targets") ?? "4000");
const ROUNDS = Number(arg("rounds") ?? "3");
const only = (arg("only") ?? "").split(",").filter(Boolean);
const hits = process.argv.includes("--hits");
const HIT_TARGETS = 64;

// --- Setup (untimed) ------------------------------------------------------------------------------
const KEY = "bench-key-0123456789abcdef";
const dataDir = await ensureDefaultData(["places", "admin", "elevation", "stations", "forecast"]);
const registry = await loadDatasets(readConfig({ GEODATA_DATA_DIR: dataDir }), silentLogger, LOADERS);
const openapi = buildOpenApi(ENDPOINTS);
const app = createApp({ endpoints: ENDPOINTS, registry, keys: new KeyChecker([KEY]), openapi: () => openapi, logger: silentLogger, ...(hits ? { responseCache: new ResponseCache(64 * 2 ** 20) } : {}) });
const mixes = buildMixes(await readPlaces(), await reportingStations(dataDir), undefined, (ROUNDS + 1) * TARGETS).filter(
  (m) => !m.name.startsWith("v1/") && m.name !== "openapi.json" && (only.length === 0 || only.includes(m.name)),
);
const request = (url: string): AppRequest => ({ method: "GET", url, headers: { "x-api-key": KEY }, hasBody: false });

// --- Timed: a warm-up slice, then ROUNDS slices (of targets not asked before, or with --hits the same 64)
process.stdout.write(`${hits ? "Cache hits" : "Cold answers"}, ${TARGETS} requests a round, ${ROUNDS} rounds\n| mix | CPU µs/request (rounds) | non-200 |\n|---|---|---|\n`);
const sliceOf = (paths: readonly string[], round: number): readonly string[] =>
  hits ? Array.from({ length: TARGETS }, (_, i) => paths[i % HIT_TARGETS]!) : paths.slice(round * TARGETS, (round + 1) * TARGETS);
for (const mix of mixes) {
  const perRound: number[] = [];
  let failed = 0;
  for (let round = 0; round <= ROUNDS; round++) {
    const slice = sliceOf(mix.paths, round);
    const before = process.cpuUsage();
    for (const url of slice) {
      const pending = app(request(url));
      const answer = pending instanceof Promise ? await pending : pending;
      if (answer.status !== 200) failed++;
    }
    const used = process.cpuUsage(before);
    if (round > 0) perRound.push((used.user + used.system) / slice.length);
  }
  const mean = perRound.reduce((a, x) => a + x, 0) / perRound.length;
  process.stdout.write(`| ${mix.name} | ${mean.toFixed(1)} (${Math.min(...perRound).toFixed(1)}-${Math.max(...perRound).toFixed(1)}) | ${failed} |\n`);
}
