/**
 * Per-cycle models read from local mirrors in NOMADS's tree, side by side (flat) or in another
 * directory, with `--run latest`; a step file that is not there is left out (the run is fetched
 * again later) instead of failing the run. Uses real GFS 0.25 APCP files in NOMADS's tree, cut to
 * the message the model reads (test/fixtures/forecast/nomads, committed: runs everywhere).
 */
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openForecastStore } from "../../../datasets/forecast/store.ts";
import { runForecast } from "../../../pipeline/forecast/step.ts";
import { FIXTURES, tempContext } from "./helpers.ts";

const NOMADS_RUN = path.join(FIXTURES, "nomads", "gfs.20200325", "18", "atmos");
const cleanup: string[] = [];
afterAll(async () => {
  for (const d of cleanup) await rm(d, { recursive: true, force: true });
});

async function mirror(layout: (name: string) => string): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "fc-layout-"));
  cleanup.push(root);
  for (const h of ["006", "018"]) {
    const target = path.join(root, layout(`gfs.t18z.pgrb2.0p25.f${h}`));
    await mkdir(path.dirname(target), { recursive: true });
    await symlink(path.join(NOMADS_RUN, `gfs.t18z.pgrb2.0p25.f${h}`), target);
  }
  return root;
}

async function ingest(root: string, extra: string[] = []): Promise<{ steps: number[]; runTime: string; built: number }> {
  const ctx = await tempContext("fc-layout-data-");
  cleanup.push(ctx.config.dataDir);
  const report = await runForecast(["--model", "gfs025", "--run", "latest", "--steps", "6,18", "--source", root, ...extra], ctx);
  const store = await openForecastStore(path.join(ctx.config.dataDir, "forecast"));
  const run = store.latest("gfs025")!;
  const result = { steps: run.meta.steps, runTime: run.meta.runTime, built: report.runs.length };
  store.close();
  return result;
}

describe("GFS 0.25 mirrors: layouts and missing steps", () => {
  it("finds the latest run in NOMADS's tree, side by side, and in another directory", async () => {
    for (const layout of [(n: string) => `gfs.20200325/18/atmos/${n}`, (n: string) => n, (n: string) => `downloads/2020-03-25/${n}`]) {
      const got = await ingest(await mirror(layout));
      expect(got).toEqual({ steps: [6, 18], runTime: "2020-03-25T18:00:00.000Z", built: 1 });
    }
  }, 120_000);

  it("leaves out a step whose file is missing and fetches the run again next time", async () => {
    const root = await mirror((n) => n);
    const ctx = await tempContext("fc-partial-");
    cleanup.push(ctx.config.dataDir);
    const args = ["--model", "gfs025", "--run", "2020032518", "--steps", "6,12,18", "--source", root];
    const first = await runForecast(args, ctx);
    expect(first.runs).toEqual([{ model: "gfs025", runTime: "2020-03-25T18:00:00.000Z", steps: 2, variables: 1 }]);
    const store = await openForecastStore(path.join(ctx.config.dataDir, "forecast"));
    // Step 18's window starts at the previous stored step: (6, 18] = 0-18 minus 0-6.
    expect(store.latest("gfs025")!.meta.intervalStart).toEqual([5, 6]);
    store.close();
    const again = await runForecast(args, ctx);
    expect(again.runs.length).toBe(1);
    await expect(runForecast(["--model", "gfs025", "--run", "2020032600", "--steps", "6", "--source", root], ctx)).rejects.toThrow(/run 2020-03-26T00:00:00.000Z of gfs025/);
  }, 120_000);
});
