/**
 * Memory of a serving process, read from /proc (smaps_rollup): elevation and forecast are read
 * where they lie, so after answering requests the process holds little more than a process that
 * serves no data at all. Two real server processes (server/main.ts, one worker each) answer the
 * same elevation and point-weather requests: one on releases of both datasets, one on an empty
 * data directory. The bound is generous (the figures are bench/sizing.bench.ts's): it catches the
 * DEMs held decoded in memory (50 MiB), not the embedded default's 5 MB of forecast runs, which
 * are within the noise of two processes' heaps.
 * Linux only (/proc).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { mulberry32 } from "../../../datasets/common/prng.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { linkRelease, pointAt } from "../../helpers/releases.ts";
import { privateMiB } from "../../../bench/proc-memory.ts";

const KEY = "memory-key-0123456789abcdef";
const RELEASE = "20261101T000000Z";
const MiB = 2 ** 20;

interface Server {
  child: ChildProcess;
  base: string;
}

const servers: Server[] = [];
const dirs: string[] = [];

/** Starts server/main.ts on `dataDir`; resolves with its URL once it logs "listening". */
async function start(dataDir: string): Promise<Server> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "server", "main.ts")], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", GEODATA_DATA_DIR: dataDir, GEODATA_API_KEYS: KEY, GEODATA_RELEASE_POLL_MS: "0", GEODATA_WORKERS: "1", GEODATA_RESPONSE_CACHE_MB: "0" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  const base = await new Promise<string>((resolve, reject) => {
    child.stderr!.on("data", (d: Buffer) => {
      log += d.toString("utf8");
      const line = log.split("\n").find((l) => l.startsWith("{") && l.includes('"msg":"listening"'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once("exit", (code) => reject(new Error(`server exited ${code}: ${log.slice(-1000)}`)));
  });
  const server = { child, base };
  servers.push(server);
  return server;
}

/** The same seeded requests to each server: elevation on the SRTM tiles and anywhere, point weather. */
async function warm(server: Server): Promise<number[]> {
  const random = mulberry32(20261128);
  const statuses: number[] = [];
  for (let k = 0; k < 600; k++) {
    const [lat, lon] = k % 3 === 0 ? [random(), 10 + 2 * random()] : [-80 + 160 * random(), -180 + 360 * random()];
    const path = k % 2 === 0 ? `/elevation/point/2/json?lat=${lat.toFixed(5)}&lon=${lon.toFixed(5)}` : `/weather/point/2/json?lat=${lat.toFixed(5)}&lon=${lon.toFixed(5)}`;
    const res = await fetch(`${server.base}${path}`, { headers: { "X-Api-Key": KEY } });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  return statuses;
}

let withData: Server;
let without: Server;
let artifactBytes = 0;

beforeAll(async () => {
  const full = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-memory-"));
  const empty = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-memory-empty-"));
  dirs.push(full, empty);
  for (const name of ["elevation", "forecast"] as const) {
    const release = await linkRelease(full, name, RELEASE, await defaultDatasetDir(name));
    await pointAt(full, name, RELEASE);
    for (const e of await fs.readdir(release, { recursive: true, withFileTypes: true })) if (e.isFile()) artifactBytes += (await fs.stat(path.join(e.parentPath, e.name))).size;
  }
  [withData, without] = await Promise.all([start(full), start(empty)]);
}, 300_000);

afterAll(async () => {
  for (const s of servers) {
    if (s.child.exitCode === null && s.child.signalCode === null) {
      const exited = new Promise((r) => s.child.once("exit", r));
      s.child.kill("SIGTERM");
      await exited;
    }
  }
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

describe.runIf(existsSync("/proc/self/smaps_rollup"))("a serving process's private memory", () => {
  it("grows by less than the decoded DEMs over a process with no data, after the same requests", async () => {
    const served = await warm(withData);
    expect(served.filter((s) => s === 200).length).toBeGreaterThan(550);
    expect(new Set(await warm(without))).toEqual(new Set([503]));
    const grown = privateMiB(withData.child.pid!) - privateMiB(without.child.pid!);
    // Measured 27-42 MiB (the release check's reads and the answers' code and heap, not yet given
    // back); the DEMs decoded whole would add 50 MiB (3601x3601 + 4320x2161 + 2 x 1201x1201 int16).
    expect(artifactBytes / MiB).toBeGreaterThan(10);
    expect(grown, `private memory grown by ${grown.toFixed(1)} MiB; the datasets' files are ${(artifactBytes / MiB).toFixed(1)} MiB`).toBeLessThan(64);
  }, 300_000);
});
