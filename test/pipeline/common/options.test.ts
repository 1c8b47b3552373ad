/**
 * The one parser of step options (pipeline/common/options.ts) and the steps that use it: values,
 * flags and plain arguments, typed errors naming the option; a range shared with an environment
 * variable is the same on both sides (datasets/common/config.ts LIMITS).
 */
import { describe, expect, it } from "vitest";
import { LIMITS, readConfig } from "../../../datasets/common/config.ts";
import { ConfigError } from "../../../datasets/common/errors.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { StepOptions } from "../../../pipeline/common/options.ts";
import { runElevation } from "../../../pipeline/elevation/step.ts";
import { parseForecastOptions } from "../../../pipeline/forecast/options.ts";
import { parseInspectArgs } from "../../../pipeline/grib/inspect-step.ts";
import { stationsStep } from "../../../pipeline/stations/step.ts";

describe("StepOptions", () => {
  const spec = { values: ["model", "keep"], flags: ["force"], positional: true };

  it("reads values (repeatable, last wins for get), flags and plain arguments in order", () => {
    const o = new StepOptions("x", ["a.grib", "--model", "m1", "--force", "b.grib", "--model", "m2", "--keep", "3"], spec);
    expect(o.all("model")).toEqual(["m1", "m2"]);
    expect(o.get("model")).toBe("m2");
    expect(o.flag("force")).toBe(true);
    expect(o.positional).toEqual(["a.grib", "b.grib"]);
    expect(o.int("keep", 1, 1, 10)).toBe(3);
    expect(o.int("other", 7, 1, 10)).toBe(7);
  });

  it("refuses an unknown option, a missing value, a plain argument where none is taken, a number out of range", () => {
    expect(() => new StepOptions("x", ["--bogus", "1"], spec)).toThrow(/--bogus: expected one of --model, --keep, --force/);
    expect(() => new StepOptions("x", ["--model"], spec)).toThrow('--model: expected a value, got "nothing"');
    expect(() => new StepOptions("x", ["--model", "--force"], spec)).toThrow(/--model: expected a value/);
    expect(() => new StepOptions("x", ["a.grib"], { values: ["model"] })).toThrow(ConfigError);
    expect(() => new StepOptions("x", ["--keep", "11"], spec).int("keep", 1, 1, 10)).toThrow('--keep: expected an integer from 1 to 10, got "11"');
    expect(() => new StepOptions("x", ["--keep", "2.5"], spec).int("keep", 1, 1, 10)).toThrow(/--keep/);
  });
});

describe("steps on the one parser", () => {
  const ctx = { config: readConfig({ GEODATA_DATA_DIR: "unused" }), logger: silentLogger };

  it("stations --retention-days and GEODATA_STATIONS_RETENTION_DAYS share one range", async () => {
    const { max } = LIMITS.stationsRetentionDays;
    expect(readConfig({ GEODATA_STATIONS_RETENTION_DAYS: String(max) }).stationsRetentionDays).toBe(max);
    expect(() => readConfig({ GEODATA_STATIONS_RETENTION_DAYS: String(max + 1) })).toThrow(`an integer from 1 to ${max}`);
    await expect(stationsStep.run(["--noaa", "n.txt", "--wmo", "w.csv", "--retention-days", String(max + 1)], ctx)).rejects.toThrow(`--retention-days: expected an integer from 1 to ${max}, got "${max + 1}"`);
    await expect(stationsStep.run(["--noaa", "n.txt", "--wmo", "w.csv", "--merge", "--bogus"], ctx)).rejects.toThrow(/--bogus/);
  });

  it("elevation: tile size a multiple of 16 from 16 to 4096, level 0 to 9, at least one input", async () => {
    await expect(runElevation(["--global", "g.tif", "--tile-size", "24"], ctx)).rejects.toThrow('--tile-size: expected a multiple of 16, got "24"');
    await expect(runElevation(["--global", "g.tif", "--tile-size", "8192"], ctx)).rejects.toThrow(/--tile-size: expected an integer from 16 to 4096/);
    await expect(runElevation(["--global", "g.tif", "--level", "10"], ctx)).rejects.toThrow(/--level: expected an integer from 0 to 9/);
    await expect(runElevation(["--global", "g.tif", "--level", "-1"], ctx)).rejects.toThrow(/--level: expected an integer from 0 to 9/);
    await expect(runElevation(["--level", "5"], ctx)).rejects.toThrow(/at least one --global, --hgt or --tif/);
  });

  it("forecast --keep and GEODATA_FORECAST_KEEP_RUNS share one range; --write-idx takes the files after it", () => {
    const { max } = LIMITS.forecastKeepRuns;
    expect(parseForecastOptions(["--model", "gfs025", "--source", "d", "--keep", String(max)]).keep).toBe(max);
    expect(() => parseForecastOptions(["--model", "gfs025", "--source", "d", "--keep", String(max + 1)])).toThrow(`--keep: expected an integer from 1 to ${max}`);
    expect(() => readConfig({ GEODATA_FORECAST_KEEP_RUNS: String(max + 1) })).toThrow(`an integer from 1 to ${max}`);
    expect(parseForecastOptions(["--write-idx", "a.grib2", "b.grib2"]).writeIdx).toEqual(["a.grib2", "b.grib2"]);
    expect(() => parseForecastOptions(["--write-idx"])).toThrow(/--write-idx: expected one or more GRIB files/);
    expect(() => parseForecastOptions(["--model", "gfs025", "--source", "d", "a.grib2"])).toThrow(/GRIB files only after --write-idx/);
    expect(() => parseForecastOptions(["--model", "gfs025", "--sauce", "d"])).toThrow(/--sauce: expected one of --model/);
    const o = parseForecastOptions(["--model", "gfs025,gfs050", "--source", "a,b", "--source", "c", "--steps", "6,18", "--run", "2020032518", "--force"]);
    expect(o.models.map((m) => m.id)).toEqual(["gfs025", "gfs050"]);
    expect(o.sources).toEqual(["a", "b", "c"]);
    expect(o).toMatchObject({ onlySteps: [6, 18], force: true, run: new Date(Date.UTC(2020, 2, 25, 18)) });
  });

  it("grib-inspect: one file, --message from 1, flags without values", () => {
    expect(parseInspectArgs(["a.grib2", "--message", "3", "--json", "--coordinates"])).toEqual({ file: "a.grib2", message: 3, json: true, coordinates: true });
    expect(() => parseInspectArgs(["a.grib2", "b.grib2"])).toThrow(/one GRIB file/);
    expect(() => parseInspectArgs(["a.grib2", "--json", "x"])).toThrow(/one GRIB file/);
  });
});
