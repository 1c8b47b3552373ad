/**
 * Sizing for docs/deploy.md: the compiled server (dist/server/start.js, what `npm start` runs,
 * with GEODATA_SERVE_ONLY=1) on a data directory whose every dataset is a release, with 1 and 2
 * workers: time to ready (the first 200 from /health/ready), RSS and PSS of each process 3 s
 * after ready (and private memory per process: the pages no other process shares), again right
 * after warming every worker with every endpoint (--warm requests of each of the http bench's
 * mixes, bench/http-mixes.ts, 8 at a time) and at rest 3 s later (an idle second gives memory
 * back: server/idle-collector.ts), then the peak while every dataset switches to a new release (each pointer moved, then
 * SIGHUP: every dataset is read and checked again while the old one still serves), sampled every
 * 20 ms from /proc until /health shows every dataset on the new release. PSS divides shared pages
 * among the processes sharing them, so the tree's PSS is what the server costs the machine.
 * The new release is hard links to the same files: file pages are shared between the two.
 *
 *   npm run bench -- sizing [--workers 1,2] [--warm 1000] [--data-dir DIR]   (default: the embedded default)
 */
import { spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DATASET_NAMES } from "../datasets/catalog.ts";
import { PROJECT_ROOT } from "../datasets/common/paths.ts";
import { locateDataset } from "../datasets/releases/locate.ts";
import { ensureDefaultData } from "../test/helpers/default-data.ts";
import { linkRelease, pointAt } from "../test/helpers/releases.ts";
import { processTree, type ProcMemory } from "./proc-memory.ts";
import { freePort } from "./server-ready.ts";
import { buildMixes, readPlaces, reportingStations } from "./http-mixes.ts";

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const WORKERS = (arg("--workers") ?? "1,2").split(",").map(Number);
const WARM = Number(arg("--warm") ?? "1000");
const KEY = "bench-key-0123456789abcdef";
const R1 = "20261101T000000Z";
const R2 = "20261102T000000Z";
/** How long the server is left alone before "ready" and "rest": time for an idle second's collection (server/idle-collector.ts). */
const REST_MS = 3000;

const source = arg("--data-dir") ? path.resolve(arg("--data-dir")!) : await ensureDefaultData(["places", "admin", "elevation", "stations", "forecast"]);
const build = spawn(process.execPath, [path.join(PROJECT_ROOT, "scripts", "build.mjs")], { stdio: "inherit" });
await new Promise((r) => build.once("exit", r));

// Two releases of every dataset made of hard links to the source's files (R2 is hashed anew when
// switched to, as a synced or rebuilt release would be).
const dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-sizing-"));
for (const name of DATASET_NAMES) {
  const from = (await locateDataset(source, name)).dir;
  for (const id of [R1, R2]) await linkRelease(dir, name, id, from);
  await pointAt(dir, name, R1);
}

// Every endpoint's requests (the 100-point forecasts a few), answered or not: what they leave behind is measured.
const mixes = buildMixes(await readPlaces(), await reportingStations(source), undefined, WARM);
async function warm(port: number): Promise<number> {
  let sent = 0;
  for (const mix of mixes) {
    const paths = mix.paths.slice(0, mix.name.includes("100 points") ? 16 : WARM);
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < paths.length) {
        const target = paths[next++]!;
        await fetch(`http://127.0.0.1:${port}${target}`, { headers: { "X-Api-Key": KEY } }).then((r) => r.arrayBuffer(), () => undefined);
        sent++;
      }
    }));
  }
  return sent;
}

const sum = (mem: ProcMemory[], k: "rssMiB" | "pssMiB"): number => Math.round(mem.reduce((a, m) => a + m[k], 0));
const perProcess = (mem: ProcMemory[]): string => mem.map((m) => `${Math.round(m.rssMiB)}/${Math.round(m.pssMiB)}`).join(" ");
const privatePerProcess = (mem: ProcMemory[]): string => mem.map((m) => Math.round(m.privateMiB)).join(" ");

const rows: Record<string, string | number>[] = [];
try {
  for (const workers of WORKERS) {
    for (const name of DATASET_NAMES) await pointAt(dir, name, R1);
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: "127.0.0.1", GEODATA_DATA_DIR: dir, GEODATA_API_KEYS: KEY, GEODATA_WORKERS: String(workers), GEODATA_RELEASE_POLL_MS: "0", GEODATA_SHUTDOWN_DELAY_MS: "0", GEODATA_SERVE_ONLY: "1", GEODATA_LOG_LEVEL: "info" };
    const t0 = performance.now();
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, "dist", "server", "start.js")], { env, stdio: ["ignore", "ignore", "pipe"] });
    let log = "";
    child.stderr!.on("data", (d: Buffer) => (log = (log + d.toString("utf8")).slice(-4000)));
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${log.slice(-2000)}`);
      const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then((r) => r.status === 200, () => false);
      if (ready) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const readyMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, REST_MS));
    const atReady = processTree(child.pid!);
    const warmStarted = performance.now();
    const warmRequests = await warm(port);
    const warmS = (performance.now() - warmStarted) / 1000;
    const afterWarm = processTree(child.pid!);
    await new Promise((r) => setTimeout(r, REST_MS));
    const atRest = processTree(child.pid!);
    for (const name of DATASET_NAMES) await pointAt(dir, name, R2);
    const t1 = performance.now();
    child.kill("SIGHUP");
    let peakRss = atReady;
    let peakPss = atReady;
    // Done when /health shows every dataset on R2 (with several workers, /health answers from
    // whichever worker takes the connection: R2 on 20 answers in a row).
    let onR2 = 0;
    while (onR2 < 20) {
      const mem = processTree(child.pid!);
      if (sum(mem, "rssMiB") > sum(peakRss, "rssMiB")) peakRss = mem;
      if (sum(mem, "pssMiB") > sum(peakPss, "pssMiB")) peakPss = mem;
      const health = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as { content: { datasets: { release?: string }[] } };
      onR2 = health.content.datasets.every((d) => d.release === R2) ? onR2 + 1 : 0;
      await new Promise((r) => setTimeout(r, 20));
    }
    const reloadMs = performance.now() - t1;
    rows.push({
      workers,
      "ready s": (readyMs / 1000).toFixed(1),
      processes: atReady.length,
      "ready RSS MiB": sum(atReady, "rssMiB"),
      "ready PSS MiB": sum(atReady, "pssMiB"),
      "ready per process RSS/PSS": perProcess(atReady),
      "ready private MiB per process": privatePerProcess(atReady),
      "warm requests": `${warmRequests} in ${warmS.toFixed(0)} s`,
      "warm RSS/PSS per process": perProcess(afterWarm),
      "warm private MiB per process": privatePerProcess(afterWarm),
      "rest PSS MiB": sum(atRest, "pssMiB"),
      "rest private MiB per process": privatePerProcess(atRest),
      "reload s": (reloadMs / 1000).toFixed(1),
      "peak RSS MiB": sum(peakRss, "rssMiB"),
      "peak PSS MiB": sum(peakPss, "pssMiB"),
      "peak per process RSS/PSS": perProcess(peakPss),
    });
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
} finally {
  await fs.rm(dir, { recursive: true, force: true });
}
process.stdout.write(`data: ${path.relative(PROJECT_ROOT, source) || source}; ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}\n`);
console.table(rows);
