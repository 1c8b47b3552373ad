/**
 * What a reload costs the requests in flight: one server process (server/main.ts, GEODATA_WORKERS=1)
 * on the embedded default, every dataset a release, under wrk (`-t1 -c20 --latency`, the eight
 * endpoints and /health in turn); p50, p99 and the slowest answer over a run without reloads,
 * then over a run with five SIGHUPs (every dataset re-read and re-checked) and a pointer switch
 * of places to a release of copied files (hashed anew before it is served). wrk on core 1, the
 * server unpinned. `--cpu-prof DIR` writes the server's CPU profile there.
 *
 *   npm run bench -- reload [--seconds 20] [--cpu-prof DIR]
 */
import { spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DATASET_NAMES } from "../datasets/catalog.ts";
import { PROJECT_ROOT } from "../datasets/common/paths.ts";
import { releaseDirOf } from "../datasets/releases/layout.ts";
import { ensureDefaultData, defaultDatasetDir } from "../test/helpers/default-data.ts";
import { linkRelease, pointAt, writeManifest } from "../test/helpers/releases.ts";
import { freePort, waitForHealth } from "./server-ready.ts";
import { missingTools, runWrk, type WrkResult } from "./wrk.ts";
import { EVERY_ENDPOINT } from "../test/helpers/load.ts";

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const SECONDS = Number(arg("--seconds") ?? 20);
const PROFILE_DIR = arg("--cpu-prof");
const KEY = "bench-key-0123456789abcdef";
const R1 = "20261101T000000Z";
const R2 = "20261102T000000Z";
/** Runs wrk on core 1 (`-t1 -c20 --latency`) over one request to each endpoint and /health, in turn. */
function wrk(url: string, seconds: number): Promise<WrkResult> {
  return runWrk({ cores: "1", url, paths: EVERY_ENDPOINT, key: KEY, encoding: "identity", seconds, connections: 20, latency: true });
}

const missing = missingTools();
if (missing) {
  process.stdout.write(`skipped: ${missing}\n`);
  process.exit(0);
}
const source = await ensureDefaultData(["elevation", "places", "admin", "stations", "forecast"]);
const dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-reload-bench-"));
for (const name of DATASET_NAMES) {
  await linkRelease(dir, name, R1, await defaultDatasetDir(name));
  await pointAt(dir, name, R1);
}
// places R2: the same files, copied (new inodes: hashed again before the switch).
await fs.cp(path.join(await defaultDatasetDir("places"), "places"), path.join(releaseDirOf(dir, "places", R2), "places"), { recursive: true });
await writeManifest(dir, "places", R2);

const port = await freePort();
const server = spawn(process.execPath, [...(PROFILE_DIR ? ["--cpu-prof", "--cpu-prof-dir", PROFILE_DIR] : []), ...(process.env.BENCH_PRELOAD ? ["--import", process.env.BENCH_PRELOAD] : []), "--import", "tsx", path.join(PROJECT_ROOT, "server", "main.ts")], {
  cwd: PROJECT_ROOT,
  env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", GEODATA_DATA_DIR: dir, GEODATA_API_KEYS: KEY, GEODATA_WORKERS: "1", GEODATA_RELEASE_POLL_MS: "500", GEODATA_LOG_LEVEL: "info" },
  stdio: ["ignore", "ignore", "pipe"],
});
const log: string[] = [];
server.stderr!.on("data", (d: Buffer) => log.push(...d.toString("utf8").split("\n").filter(Boolean)));
try {
  await waitForHealth(port, 200, () => (server.exitCode !== null ? `server exited ${server.exitCode}` : undefined));
  const url = `http://127.0.0.1:${port}`;
  await wrk(url, 5); // warm-up
  const quiet = await wrk(url, SECONDS);
  const during = wrk(url, SECONDS);
  const step = (SECONDS * 1000) / 7;
  for (let i = 1; i <= 5; i++) {
    await new Promise((r) => setTimeout(r, step));
    server.kill("SIGHUP");
  }
  await new Promise((r) => setTimeout(r, step));
  await pointAt(dir, "places", R2);
  const reloading = await during;
  const reloadedInRun = log.filter((l) => l.includes('"dataset reloaded"')).length;
  // The reloads queued behind one another finish after the run: wait for the last (places R2).
  for (let i = 0; i < 600 && !log.some((l) => l.includes('"dataset reloaded"') && l.includes(R2)); i++) await new Promise((r) => setTimeout(r, 100));
  const reloads = log.filter((l) => l.includes('"dataset reloaded"')).map((l) => JSON.parse(l) as { dataset: string; loadMs: number });
  process.stdout.write(JSON.stringify({ quiet, reloading, p99DeltaMs: Math.round((reloading.latency!.p99Ms - quiet.latency!.p99Ms) * 100) / 100, reloads: reloads.length, reloadsDuringRun: reloadedInRun, loadMs: Object.fromEntries(DATASET_NAMES.map((n) => [n, reloads.filter((r) => r.dataset === n).map((r) => r.loadMs)])) }, null, 1) + "\n");
  const served = (await (await fetch(`${url}/health`)).json()) as { content: { datasets: Array<{ name: string; release?: string }> } };
  if (served.content.datasets.find((d) => d.name === "places")?.release !== R2) throw new Error("places R2 was not picked up");
} finally {
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  await fs.rm(dir, { recursive: true, force: true });
  void source;
}
