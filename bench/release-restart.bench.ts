/**
 * Time to ready after a restart over unchanged files: the server (tsx server/start.ts
 * --no-default-build, `--workers N` processes, default 1) on the embedded default (every dataset
 * a release, hard-linked from the test data), with or without the checks remembered
 * (`releases/.checked.json`, removed before each "hash every file" start: what every start did
 * before the memory existed). `--gb N` adds N GB of filler files to the elevation release (real
 * copies of its global DEM: distinct inodes, each hashed on its own), to see the cost grow with
 * the bytes as at full size. Ready = the first /health answer (a process listens once every
 * dataset is opened; with several workers, the first of them). The files are in the page cache
 * after the first start, so "hash every file" is the CPU cost of SHA-256 here, not disk reads (a
 * full-size node reads from disk: slower still).
 *
 *   npm run bench -- release-restart [--runs 3] [--gb 2] [--workers 2]
 */
import { spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DATASET_NAMES } from "../datasets/catalog.ts";
import { PROJECT_ROOT } from "../datasets/common/paths.ts";
import { CHECKED_FILE } from "../datasets/releases/checked-files.ts";
import { releaseDirOf } from "../datasets/releases/layout.ts";
import { locateDataset } from "../datasets/releases/locate.ts";
import { ensureDefaultData } from "../test/helpers/default-data.ts";
import { linkTree, pointAt, writeManifest } from "../test/helpers/releases.ts";
import { freePort, waitForHealth } from "./server-ready.ts";

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}
const runs = Number(option("runs", "3"));
const gb = Number(option("gb", "0"));
const workers = option("workers", "1");
const ID = "20261101T000000Z";

const source = await ensureDefaultData(["places", "admin", "elevation", "stations", "forecast"]);
const dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-bench-restart-"));
try {
  for (const name of DATASET_NAMES) {
    await linkTree((await locateDataset(source, name)).dir, releaseDirOf(dir, name, ID));
    if (name === "elevation" && gb > 0) {
      const dem = path.join(releaseDirOf(dir, name, ID), "elevation", "global", "etopo5.tif");
      const size = (await fs.stat(dem)).size;
      await fs.mkdir(path.join(releaseDirOf(dir, name, ID), "filler"), { recursive: true });
      for (let i = 0, bytes = 0; bytes < gb * 1e9; i++, bytes += size) await fs.copyFile(dem, path.join(releaseDirOf(dir, name, ID), "filler", `copy-${String(i).padStart(5, "0")}.tif`));
    }
    await fs.rm(path.join(releaseDirOf(dir, name, ID), "release.json"), { force: true });
    await writeManifest(dir, name, ID);
    await pointAt(dir, name, ID);
  }
  let bytes = 0;
  for (const name of DATASET_NAMES) {
    const manifest = JSON.parse(await fs.readFile(path.join(releaseDirOf(dir, name, ID), "release.json"), "utf8")) as { files: Array<{ size: number }> };
    bytes += manifest.files.reduce((n, f) => n + f.size, 0);
  }

  async function start(): Promise<number> {
    const port = await freePort();
    const t0 = performance.now();
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, "node_modules", "tsx", "dist", "cli.mjs"), path.join(PROJECT_ROOT, "server", "start.ts"), "--no-default-build"], {
      env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", GEODATA_DATA_DIR: dir, GEODATA_WORKERS: workers, GEODATA_LOG_LEVEL: "warn", GEODATA_API_KEYS: "bench-key-0123456789abcdef" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    let exited: string | undefined;
    child.once("exit", (code) => (exited = `the server exited (${code})`));
    await waitForHealth(port, 20, () => exited);
    const ms = performance.now() - t0;
    const gone = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await gone;
    return ms;
  }

  const rows: Array<Record<string, string | number>> = [];
  const times: Record<string, number[]> = { "hash every file": [], remembered: [] };
  for (let run = 0; run < runs; run++) {
    await fs.rm(path.join(dir, "releases", CHECKED_FILE), { force: true });
    times["hash every file"]!.push(await start());
    times.remembered!.push(await start());
  }
  for (const [variant, ms] of Object.entries(times)) {
    const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
    rows.push({ variant, workers, "release GB": +(bytes / 1e9).toFixed(2), "ready ms (min)": Math.round(Math.min(...ms)), "ready ms (mean)": Math.round(mean), runs: ms.length });
  }
  console.table(rows);
  const [all, kept] = [Math.min(...times["hash every file"]!), Math.min(...times.remembered!)];
  process.stdout.write(`remembered / hash every file: ${(kept / all).toFixed(2)} (min of ${runs} runs each)\n`);
} finally {
  await fs.rm(dir, { recursive: true, force: true });
}
