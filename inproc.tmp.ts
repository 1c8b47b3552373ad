import { readConfig } from "/work/main/datasets/common/config.ts";
import { createLogger } from "/work/main/datasets/common/log.ts";
import { silentAccessLog } from "/work/main/server/http/access-log.ts";
import { startService } from "/work/main/server/service.ts";
import { buildMixes, readPlaces, reportingStations } from "/work/main/bench/http-mixes.ts";
const dataDir = "/work/main/.cache/test-data";
const cacheMb = process.env.CACHE ?? "64";
const config = readConfig({ PORT: "0", HOST: "127.0.0.1", GEODATA_API_KEYS: "bench-key-0123456789abcdef", GEODATA_DATA_DIR: dataDir, GEODATA_RESPONSE_CACHE_MB: cacheMb, GEODATA_RELEASE_POLL_MS: "0" });
const service = await startService({ config, logger: createLogger({ minLevel: "error" }), accessLogger: silentAccessLog });
// reach the app: through service.running.server's request listener is awkward; build our own via createApp? use fetch-free: import app via service internals
const places = await readPlaces();
const stations = await reportingStations(dataDir);
const mixSize = Number(process.env.MIX ?? 4096);
const mixes = buildMixes(places, stations, 20261123, mixSize).filter((m) => m.name !== "openapi.json");
const app = service.app;
const enc = process.env.ENC ?? "identity";
for (const mix of mixes) {
  const reqs = mix.paths.map((p) => ({ method: "GET", url: p, headers: { host: "x", "x-api-key": "bench-key-0123456789abcdef", "accept-encoding": enc }, hasBody: false, httpVersion: "1.1" }));
  for (let i = 0; i < 3000; i++) await app(reqs[i % reqs.length]);
  const n = 20000;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await app(reqs[i % reqs.length]);
  const c = process.cpuUsage(c0);
  console.log(mix.name.padEnd(14), ((performance.now() - t0) * 1000 / n).toFixed(1), "µs wall", ((c.user + c.system) / n).toFixed(1), "µs cpu");
}
await service.stop();
