/**
 * Which compression levels to use: CPU time and size of brotli (quality 0-5) and gzip (levels
 * 1-6) on real answer bodies: 64 bodies per endpoint from the request mixes of the http bench
 * (bench/http-mixes.ts), fetched with `Accept-Encoding: identity` from the service started
 * in-process on the test data. Baseline: the time to copy each body (Buffer.from), i.e. the
 * cost of identity. One core; medians of 5 passes.
 *
 *   npm run bench -- compression
 */
import { brotliCompressSync, constants as zc, gzipSync } from "node:zlib";
import { readConfig } from "../datasets/common/config.ts";
import { silentLogger } from "../datasets/common/log.ts";
import { startService } from "../server/service.ts";
import { ensureDefaultData } from "../test/helpers/default-data.ts";
import { buildMixes, readPlaces, reportingStations } from "./http-mixes.ts";
import { silentAccessLog } from "../server/http/access-log.ts";

const STEPS = ["places", "admin", "elevation", "stations", "forecast"];
const dataDir = await ensureDefaultData(STEPS);
const KEY = "bench-key-0123456789abcdef";
const service = await startService({
  config: readConfig({ PORT: "0", HOST: "127.0.0.1", GEODATA_API_KEYS: KEY, GEODATA_DATA_DIR: dataDir, GEODATA_RELEASE_POLL_MS: "0" }),
  logger: silentLogger,
  accessLogger: silentAccessLog,
});
const base = `http://127.0.0.1:${service.running.port}`;
const mixes = buildMixes(await readPlaces(), await reportingStations(dataDir));
const bodies = new Map<string, Buffer[]>();
for (const mix of mixes) {
  const got: Buffer[] = [];
  for (const p of mix.paths.slice(0, 64)) {
    const res = await fetch(base + p, { headers: { "X-Api-Key": KEY, "Accept-Encoding": "identity" } });
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status === 200) got.push(body);
  }
  if (got.length) bodies.set(mix.name, got);
}
await service.stop();

const codecs: Record<string, (b: Buffer) => Buffer> = {
  "copy (identity)": (b) => Buffer.from(b),
  ...Object.fromEntries([0, 1, 2, 3, 4, 5].map((q) => [`br q${q}`, (b: Buffer) => brotliCompressSync(b, { params: { [zc.BROTLI_PARAM_QUALITY]: q, [zc.BROTLI_PARAM_SIZE_HINT]: b.byteLength } })])),
  ...Object.fromEntries([1, 3, 6].map((l) => [`gzip ${l}`, (b: Buffer) => gzipSync(b, { level: l })])),
};

const rows: Record<string, string | number>[] = [];
for (const [endpoint, list] of bodies) {
  const raw = list.reduce((a, b) => a + b.byteLength, 0);
  for (const [name, codec] of Object.entries(codecs)) {
    let size = 0;
    for (const b of list) size += codec(b).byteLength; // warm-up and size
    const passes: number[] = [];
    for (let pass = 0; pass < 5; pass++) {
      const t0 = process.hrtime.bigint();
      for (const b of list) codec(b);
      passes.push(Number(process.hrtime.bigint() - t0) / 1000 / list.length);
    }
    passes.sort((a, b) => a - b);
    rows.push({ endpoint, "mean body B": Math.round(raw / list.length), codec: name, "µs per body": passes[2]!.toFixed(1), "size %": ((100 * size) / raw).toFixed(1) });
  }
}
console.table(rows);
