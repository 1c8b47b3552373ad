/**
 * build-default as replicas run it (`npm start` on several processes sharing one data directory):
 * two builds at once build each dataset once (the second waits for the dataset's lock, then finds
 * the release up to date; the two never interleave), and a build killed half-way leaves only its
 * hidden assembly directory and its lock, which the next run removes and takes over before it
 * publishes a whole release. Real data: the embedded default's elevation dataset (the quickest
 * step to build).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../datasets/common/paths.ts";
import { releasesRoot } from "../../datasets/releases/layout.ts";
import { locateDataset } from "../../datasets/releases/locate.ts";
import { until } from "../helpers/until.ts";

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-build-default-"));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  /** JSON log lines, with the time each arrived. */
  lines: Array<{ msg: string; at: number } & Record<string, unknown>>;
  done: Promise<number | null>;
}

function buildDefault(): Run {
  // node --import tsx (not the tsx wrapper): the child is the build itself, so SIGKILL reaches it.
  const child = spawn(process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "pipeline", "cli.ts"), "build-default", "--only", "elevation"], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, GEODATA_DATA_DIR: dir, GEODATA_LOG_LEVEL: "info" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const run: Run = { child, lines: [], done: new Promise((resolve) => child.on("close", resolve)) };
  let buffer = "";
  child.stderr!.on("data", (d: Buffer) => {
    buffer += d.toString("utf8");
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.startsWith("{")) run.lines.push({ ...(JSON.parse(line) as { msg: string }), at: performance.now() });
    }
  });
  return run;
}

const at = (run: Run, msg: string) => run.lines.find((l) => l.msg === msg)?.at;

describe("build-default on a shared data directory", () => {
  it("builds a dataset once when two processes start at the same time: one waits for the other, then finds it up to date", async () => {
    const [a, b] = [buildDefault(), buildDefault()];
    expect(await Promise.all([a.done, b.done])).toEqual([0, 0]);
    const [builder, waiter] = at(a, "building embedded default") !== undefined ? [a, b] : [b, a];
    expect(at(waiter, "building embedded default")).toBeUndefined();
    expect(at(waiter, "waiting for the dataset's lock")).toBeDefined();
    // No interleaving: the waiter looked only after the builder had published.
    expect(at(waiter, "up to date")!).toBeGreaterThan(at(builder, "release published")!);
    const ids = (await fs.readdir(releasesRoot(dir, "elevation"))).filter((n) => /^\d{8}T/.test(n));
    expect(ids).toHaveLength(1);
    expect((await locateDataset(dir, "elevation")).release).toBe(ids[0]);
  }, 180_000);

  it("removes what a killed build left, takes over its lock, and publishes a whole release", async () => {
    const killed = buildDefault();
    // Killed half-way: once its step has written a first DEM file into the assembly, before it
    // publishes.
    const root = releasesRoot(dir, "elevation");
    const assembly = await until("the build's assembly directory", async () => (await fs.readdir(root).catch(() => [] as string[])).find((n) => n.startsWith(".build-")), 60_000);
    await until("a DEM file written into the assembly", async () => {
      const files = await fs.readdir(path.join(root, assembly), { recursive: true }).catch(() => [] as string[]);
      return files.some((f) => f.endsWith(".tif"));
    }, 60_000);
    killed.child.kill("SIGKILL");
    await killed.done;
    expect((await fs.readdir(root)).sort()).toEqual([assembly, ".lock"].sort());
    expect(at(killed, "release published")).toBeUndefined();
    expect((await locateDataset(dir, "elevation")).release).toBeUndefined();

    const next = buildDefault();
    expect(await next.done).toBe(0);
    expect(next.lines.find((l) => l.msg === "removed what a killed run left")).toMatchObject({ removed: [assembly] });
    expect(next.lines.find((l) => l.msg === "stale dataset lock taken over")).toMatchObject({ previous: { pid: killed.child.pid } });
    const names = (await fs.readdir(root)).sort();
    const id = (await locateDataset(dir, "elevation")).release!;
    expect(names).toEqual([id, "current", "current.txt"]);
  }, 180_000);
});
