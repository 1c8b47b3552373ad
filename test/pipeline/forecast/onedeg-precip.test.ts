/**
 * Accumulation arithmetic on the real GFS 1 degree precipitation series, checked by hand against
 * ecCodes: the fixture holds ecCodes' values of every message (running totals 0-N and 6-hour
 * buckets) at five grid points; the expected per-step amounts are computed here from those raw
 * values, independently of the step's window planner.
 */
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EMBEDDED_DIR } from "../../../datasets/common/paths.ts";
import { openForecastStore } from "../../../datasets/forecast/store.ts";
import { runForecast } from "../../../pipeline/forecast/step.ts";
import { needsSharedData } from "../../helpers/shared-data.ts";
import { FIXTURES, tempContext } from "./helpers.ts";

interface Fixture {
  files: Record<string, { lat: number; lon: number; messages: { dataTime: number; stepRange: string; value: number }[] }[]>;
}

const FILE48 = "GFS_Global_onedeg_20220627_0000.TotalPrecip.Out48hrs.grib2";
const FILE24 = "GFS_Global_onedeg_20220627.TotalPrecip.Out24hrs.grib2";
const precip24 = needsSharedData([`grib/gfs-multistep/${FILE24}`]);
const SHARED = precip24.path("grib", "gfs-multistep");
/** Store resolution of precipitation (0.01 mm) / 2, plus float32 rounding. */
const TOL = 0.005 + 1e-4;

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

function valueOf(messages: Fixture["files"][string][number]["messages"], dataTime: number, range: string): number | undefined {
  return messages.find((m) => m.dataTime === dataTime && m.stepRange === range)?.value;
}

describe("GFS 1 degree precipitation: per-step amounts from buckets and running totals", async () => {
  const fixture = JSON.parse(await readFile(path.join(FIXTURES, "onedeg-precip-eccodes.json"), "utf8")) as Fixture;

  it("00Z run to 48 h (embedded file): bucket differences, equal to running-total differences", async () => {
    const ctx = await tempContext("fc-precip-");
    dirs.push(ctx.config.dataDir);
    await runForecast(["--model", "gfs-1p0-precip", "--source", path.join(EMBEDDED_DIR, "grib")], ctx);
    const store = await openForecastStore(path.join(ctx.config.dataDir, "forecast"));
    const run = store.latest("gfs-1p0-precip")!;
    expect(run.meta.runTime).toBe("2022-06-27T00:00:00.000Z");
    expect(run.meta.steps).toEqual([3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48]);
    expect(run.meta.intervalStart).toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45]);
    for (const point of fixture.files[FILE48]!) {
      const series = run.cellSeries(point.lon, point.lat + 90, "precipitation")!;
      for (const [k, s] of run.meta.steps.entries()) {
        const p = s - 3;
        const bucketStart = Math.floor(p / 6) * 6;
        // Bucket arithmetic: (p, s] = [b, s] - [b, p] within the 6-hour bucket starting at b.
        const bucket = valueOf(point.messages, 0, `${bucketStart}-${s}`)! - (p > bucketStart ? valueOf(point.messages, 0, `${bucketStart}-${p}`)! : 0);
        // Running totals: (p, s] = [0, s] - [0, p].
        const running = valueOf(point.messages, 0, `0-${s}`)! - (p > 0 ? valueOf(point.messages, 0, `0-${p}`)! : 0);
        expect(Math.abs(series[k]! - bucket), `${point.lat},${point.lon} step ${s}: ${series[k]} vs ${bucket}`).toBeLessThanOrEqual(TOL);
        // The two routes agree within GFS's packing precision (1/16 mm for each total).
        expect(Math.abs(running - bucket)).toBeLessThanOrEqual(2 / 16 + 1e-9);
      }
    }
    // 17N 123E by hand from the ecCodes values: 0-3 = 3.375; 0-6 minus 0-3 = 3.875 - 3.375 = 0.5;
    // the 6-9 bucket = 2.4375 (running totals give 6.375 - 3.875 = 2.5: 1/16 of packing apart);
    // 6-12 minus 6-9 = 4.875 - 2.4375 = 2.4375.
    const manila = run.cellSeries(123, 107, "precipitation")!;
    for (const [k, mm] of [3.375, 0.5, 2.4375, 2.4375].entries()) expect(Math.abs(manila[k]! - mm)).toBeLessThanOrEqual(TOL);
    store.close();
  });

  precip24.it("06Z, 12Z and 18Z runs of the 24-hour file (shared data)", async () => {
    const ctx = await tempContext("fc-precip24-");
    dirs.push(ctx.config.dataDir);
    await runForecast(["--model", "gfs-1p0-precip", "--source", SHARED, "--keep", "4"], ctx);
    const store = await openForecastStore(path.join(ctx.config.dataDir, "forecast"));
    const runs = store.byModel.get("gfs-1p0-precip")!;
    expect(runs.map((r) => r.meta.runTime.slice(11, 13))).toEqual(["18", "12", "06", "00"]);
    for (const run of runs.slice(0, 3)) {
      const dataTime = Number(run.meta.runTime.slice(11, 13)) * 100;
      expect(run.meta.steps).toEqual([3, 6, 9, 12, 15, 18, 21, 24]);
      for (const point of fixture.files[FILE24]!) {
        const series = run.cellSeries(point.lon, point.lat + 90, "precipitation")!;
        for (const [k, s] of run.meta.steps.entries()) {
          const p = s - 3;
          const b = Math.floor(p / 6) * 6;
          const expected = valueOf(point.messages, dataTime, `${b}-${s}`)! - (p > b ? valueOf(point.messages, dataTime, `${b}-${p}`)! : 0);
          expect(Math.abs(series[k]! - expected), `${run.meta.runTime} ${point.lat},${point.lon} step ${s}`).toBeLessThanOrEqual(TOL);
        }
      }
    }
    store.close();
  });
});
