/**
 * Publication: the newest N runs per model are kept and older files removed after the index
 * switch; a failed build (truncated GRIB input) throws a typed error naming the file and offset
 * and leaves the previous store serving.
 */
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EMBEDDED_DIR } from "../../../datasets/common/paths.ts";
import { openForecastStore } from "../../../datasets/forecast/store.ts";
import { runForecast } from "../../../pipeline/forecast/step.ts";
import { tempContext } from "./helpers.ts";

const cleanup: string[] = [];
afterAll(async () => {
  for (const d of cleanup) await rm(d, { recursive: true, force: true });
});

const GRIB = path.join(EMBEDDED_DIR, "grib");

describe("forecast publication", () => {
  it("keeps the newest runs per model and deletes the files of older ones", async () => {
    const ctx = await tempContext("fc-keep-");
    cleanup.push(ctx.config.dataDir);
    const dir = path.join(ctx.config.dataDir, "forecast", "gfs-2p5-sample");
    await runForecast(["--model", "gfs-2p5-sample", "--source", GRIB, "--keep", "1"], ctx);
    expect(await readdir(dir)).toEqual(["2011100800.fcst"]);
    await runForecast(["--model", "gfs-2p5-sample,gfs-alaska-2p5", "--source", GRIB, "--keep", "2"], ctx);
    expect((await readdir(dir)).sort()).toEqual(["2011011012.fcst", "2011100800.fcst"]);
    await runForecast(["--model", "gfs-alaska-2p5", "--source", GRIB, "--keep", "1"], ctx);
    // Keeping one run applies to every model of the index: the 12Z run of 2011-01-10 goes.
    expect(await readdir(dir)).toEqual(["2011100800.fcst"]);
    const store = await openForecastStore(path.join(ctx.config.dataDir, "forecast"));
    expect(store.index.runs.map((r) => `${r.model} ${r.runTime}`)).toEqual(["gfs-2p5-sample 2011-10-08T00:00:00.000Z", "gfs-alaska-2p5 2011-09-02T06:00:00.000Z"].sort());
    store.close();
  });

  it("--drop-other-models leaves only the models ingested in the index, and their files only", async () => {
    const ctx = await tempContext("fc-drop-");
    cleanup.push(ctx.config.dataDir);
    await runForecast(["--model", "gfs-2p5-sample,gfs-alaska-2p5", "--source", GRIB], ctx);
    await runForecast(["--model", "gfs-alaska-2p5", "--source", GRIB, "--drop-other-models"], ctx);
    const store = await openForecastStore(path.join(ctx.config.dataDir, "forecast"));
    expect(store.models()).toEqual(["gfs-alaska-2p5"]);
    store.close();
    expect(await readdir(path.join(ctx.config.dataDir, "forecast", "gfs-2p5-sample"))).toEqual([]);
  });

  it("fails on a truncated GRIB file naming it and the offset, and leaves the previous store serving", async () => {
    const ctx = await tempContext("fc-fail-");
    cleanup.push(ctx.config.dataDir);
    const src = await mkdtemp(path.join(tmpdir(), "fc-src-"));
    cleanup.push(src);
    const name = "gfs-2011090206-alaska-subgrids-f000-f384.grib2";
    await copyFile(path.join(GRIB, name), path.join(src, name));
    await runForecast(["--model", "gfs-alaska-0p5", "--source", src, "--steps", "0-12"], ctx);
    const index = path.join(ctx.config.dataDir, "forecast", "index.bin");
    const before = await readFile(index);
    const bytes = await readFile(path.join(src, name));
    await writeFile(path.join(src, name), bytes.subarray(0, 100_000));
    await expect(runForecast(["--model", "gfs-alaska-0p5", "--source", src, "--force"], ctx)).rejects.toThrow(new RegExp(`${name}.*offset \\d+.*truncated`));
    expect((await readFile(index)).equals(before)).toBe(true);
    const store = await openForecastStore(path.join(ctx.config.dataDir, "forecast"));
    expect(store.latest("gfs-alaska-0p5")!.meta.steps).toEqual([0, 3, 6, 9, 12]);
    store.close();
  });
});

describe("explicit input files", () => {
  it("--files feeds a production model from any GRIB file: GFS 1 degree precipitation through gfs100 equals the sample model", async () => {
    const file = path.join(GRIB, "GFS_Global_onedeg_20220627_0000.TotalPrecip.Out48hrs.grib2");
    const a = await tempContext("fc-files-");
    const b = await tempContext("fc-files-ref-");
    cleanup.push(a.config.dataDir, b.config.dataDir);
    await runForecast(["--model", "gfs100", "--files", file], a);
    await runForecast(["--model", "gfs-1p0-precip", "--source", GRIB], b);
    const sa = await openForecastStore(path.join(a.config.dataDir, "forecast"));
    const sb = await openForecastStore(path.join(b.config.dataDir, "forecast"));
    const ra = sa.latest("gfs100")!;
    const rb = sb.latest("gfs-1p0-precip")!;
    expect(ra.meta.steps).toEqual(rb.meta.steps);
    expect(ra.meta.variables.map((v) => v.name)).toEqual(["precipitation"]);
    expect(ra.pointSeries(17, 123)!.values).toEqual(rb.pointSeries(17, 123)!.values);
    sa.close();
    sb.close();
  });
});
