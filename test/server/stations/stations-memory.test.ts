/**
 * The stations dataset is opened, not loaded: a fresh process that opens stations.idx and answers
 * every reporting station of the embedded default (each series read where it lies) grows its
 * private memory (smaps_rollup: Private_Clean + Private_Dirty, what the process alone holds) by a
 * few MiB. Loading the dataset whole, as DuckDB rows copied into per-station arrays, added about
 * 60 MiB (DuckDB's native library included). The measure runs in a child process: the test's own
 * process may have just built the dataset, and the heap that build left would hide the growth.
 * The bound is generous (bench/sizing.bench.ts prints the figures): it only catches the dataset
 * loaded whole again.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";

const BOUND_MIB = 30;

describe.runIf(existsSync("/proc/self/smaps_rollup"))("stations dataset memory per worker", () => {
  it(`grows a process's private memory by less than ${BOUND_MIB} MiB after answering every reporting station`, async () => {
    const dir = await defaultDatasetDir("stations");
    const child = path.join(PROJECT_ROOT, "test", "server", "stations", "stations-memory-child.ts");
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", child, dir], { cwd: PROJECT_ROOT });
    const { grownMiB, stations, near, jsonMiB } = JSON.parse(stdout) as { grownMiB: number; stations: number; near: number; jsonMiB: number };
    console.log(`stations: private memory +${grownMiB.toFixed(1)} MiB after opening and answering ${stations} stations (${jsonMiB.toFixed(1)} MiB of JSON) and 2,000 points' local stations`);
    expect(stations).toBeGreaterThan(2000);
    expect(near).toBeGreaterThan(100);
    expect(grownMiB).toBeLessThan(BOUND_MIB);
  }, 600_000);
});
