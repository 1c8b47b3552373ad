/**
 * Where a /weather/point answer's time goes at full size: starts one compiled worker
 * (dist/server/start.js; `npm run build` first) with `--cpu-prof` on DATA_DIR, the response cache
 * off, sends 420 sequential requests over seeded random points (-60 to 70°, any longitude; the
 * first 20 not timed), prints the client's median and p95, and leaves the profile in OUT_DIR for
 * Chrome DevTools or a summary script.
 *
 *   npx tsx bench/scale/point-profile.ts DATA_DIR OUT_DIR [gzip|br|identity]
 */
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { mulberry32 } from "../../datasets/common/prng.ts";
import { PROJECT_ROOT } from "../../datasets/common/paths.ts";
import { freePort, waitForHealth } from "../server-ready.ts";

const [dataDir, outDir, encoding = "gzip"] = process.argv.slice(2);
if (!dataDir || !outDir) throw new Error("usage: point-profile.ts DATA_DIR OUT_DIR [gzip|br|identity]");
mkdirSync(outDir, { recursive: true });
const KEY = "profile-key-0123456789abcdef";
const port = await freePort();
const child = spawn(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${path.resolve(outDir)}`, path.join(PROJECT_ROOT, "dist", "server", "start.js"), "--no-default-build"], {
  env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", GEODATA_DATA_DIR: path.resolve(dataDir), GEODATA_API_KEYS: KEY, GEODATA_WORKERS: "1", GEODATA_RESPONSE_CACHE_MB: "0" },
  stdio: ["ignore", "ignore", "inherit"],
});
await waitForHealth(port, 200);
const random = mulberry32(20261123);
const ms: number[] = [];
let bytes = 0;
for (let k = 0; k < 420; k++) {
  const lat = Number((-60 + random() * 130).toFixed(4));
  const lon = Number((-180 + random() * 360).toFixed(4));
  const t0 = performance.now();
  const r = await fetch(`http://127.0.0.1:${port}/weather/point/2/json?lat=${lat}&lon=${lon}`, { headers: { "X-Api-Key": KEY, "Accept-Encoding": encoding } });
  bytes = (await r.arrayBuffer()).byteLength;
  ms.push(performance.now() - t0);
}
const timed = ms.slice(20).sort((a, b) => a - b);
const at = (q: number): string => timed[Math.min(timed.length - 1, Math.floor(q * timed.length))]!.toFixed(2);
process.stdout.write(JSON.stringify({ encoding, n: timed.length, medianMs: Number(at(0.5)), p95Ms: Number(at(0.95)), decodedBytes: bytes, profileDir: outDir }) + "\n");
child.kill("SIGINT");
await new Promise((res) => child.once("exit", res));
