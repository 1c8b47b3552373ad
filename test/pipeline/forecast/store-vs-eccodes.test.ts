/**
 * The store's series at grid points against ecCodes' values of the same GRIB messages
 * (fixtures: ecCodes reference samples, 32 grid points per message). The store is the embedded
 * default built by `build-default --only forecast`; a windowed value (Tmax, precipitation, cloud
 * averages) is compared at the step whose window is exactly the message's window.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { readConfig } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { runForecast } from "../../../pipeline/forecast/step.ts";
import { bilinear } from "../../../datasets/forecast/grid.ts";
import { openForecastStore, type ForecastStore } from "../../../datasets/forecast/store.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { needsSharedData } from "../../helpers/shared-data.ts";
import type { EccodesSample } from "../grib/eccodes-reference.ts";
import { FIXTURES, tempContext } from "./helpers.ts";

interface Reference {
  message: number;
  shortName: string;
  typeOfLevel: string;
  level: number;
  stepRange: string | number;
  parameterCategory?: number;
  parameterNumber?: number;
  Ni: number;
  Nj: number;
  samples: EccodesSample[];
}

async function references(name: string, dir = FIXTURES): Promise<Reference[]> {
  const text = await readFile(path.join(dir, name), "utf8");
  return text.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Reference);
}

/** Our vocabulary name for an ecCodes message (shortName and level as ecCodes reports them). */
function variableOf(r: Reference): string | undefined {
  const byLayer: Record<string, string> = {
    atmosphereSingleLayer: "cloud_cover",
    entireAtmosphere: "cloud_cover",
    highCloudLayer: "cloud_cover_high",
    middleCloudLayer: "cloud_cover_mid",
    lowCloudLayer: "cloud_cover_low",
    convectiveCloudLayer: "cloud_cover_convective",
    boundaryLayerCloudLayer: "cloud_cover_boundary_layer",
  };
  if (r.shortName === "tcc") return byLayer[r.typeOfLevel];
  if (r.shortName === "t" && r.typeOfLevel === "isobaricInhPa") return `temperature_${r.level}hPa`;
  if (r.shortName === "gh" && r.typeOfLevel === "isothermZero") return "freezing_level_height";
  if (r.parameterCategory === 3 && r.parameterNumber === 196) return "boundary_layer_height";
  const names: Record<string, string> = {
    "2t": "temperature_2m",
    tmax: "temperature_2m_max",
    tmin: "temperature_2m_min",
    "2r": "relative_humidity_2m",
    r: "relative_humidity_2m",
    "10u": "wind_u_10m",
    "10v": "wind_v_10m",
    gust: "wind_gust",
    unknown: "wind_gust",
    prmsl: "pressure_msl",
    msl: "pressure_msl",
    orog: "surface_height",
    tp: "precipitation",
    acpcp: "precipitation_convective",
    lftx: "lifted_index",
  };
  return names[r.shortName];
}

function endStep(r: Reference): number {
  const s = String(r.stepRange);
  return Number(s.includes("-") ? s.split("-")[1] : s);
}

let store: ForecastStore;
beforeAll(async () => {
  store = await openForecastStore(path.join(await defaultDatasetDir("forecast"), "forecast"));
}, 120_000);
afterAll(async () => {
  store.close();
  for (const d of cleanup) await rm(d, { recursive: true, force: true });
});
const cleanup: string[] = [];

/**
 * Compares every sample; `cellOf` maps a sample to the domain cell. Tolerance: half the store's
 * scale, plus half a unit of the 7th significant digit (the reference prints values with 7
 * significant digits: 101206.25 Pa appears as 101206.2), plus float32 rounding.
 */
function compare(model: string, runTime: string, refs: Reference[], cellOf: (r: Reference, s: EccodesSample) => { i: number; j: number }, from: ForecastStore = store): number {
  const run = from.byModel.get(model)!.find((r) => r.meta.runTime === runTime)!;
  expect(run, `${model} ${runTime}`).toBeDefined();
  let compared = 0;
  for (const r of refs) {
    const name = variableOf(r);
    expect(name, `message ${r.message} ${r.shortName} ${r.typeOfLevel}`).toBeDefined();
    const k = run.meta.steps.indexOf(endStep(r));
    expect(k, `${name} step ${r.stepRange}`).toBeGreaterThanOrEqual(0);
    const variable = run.meta.variables.find((v) => v.name === name)!;
    expect(variable, name).toBeDefined();
    for (const s of r.samples) {
      const { i, j } = cellOf(r, s);
      const got = run.cellSeries(i, j, name!)![k]!;
      // The point reader (what the endpoints use) gives the same value at the grid point itself.
      const lon = run.meta.grid.lon0 + i * run.meta.grid.dLon;
      const lat = run.meta.grid.lat0 + j * run.meta.grid.dLat;
      const point = run.pointSeries(lat, lon, [name!])!;
      const interpolated = bilinear(point.values[0]!, point.cells.map((c) => c.weight))[k]!;
      if (s.value === null) {
        expect(got).toBeNaN();
        continue;
      }
      const printed = s.value === 0 ? 0 : 0.5 * 10 ** (Math.floor(Math.log10(Math.abs(s.value))) - 6);
      const tol = variable.scale / 2 + printed + Math.abs(s.value) * 2 ** -22;
      expect(Math.abs(got - s.value), `${model} ${name} step ${r.stepRange} at ${s.lat},${s.lon}: ${got} vs ${s.value}`).toBeLessThanOrEqual(tol);
      expect(Math.abs(interpolated - s.value), `point series at ${lat},${lon}`).toBeLessThanOrEqual(tol);
      compared++;
    }
  }
  return compared;
}

describe("forecast store vs ecCodes at grid points", () => {
  it("GFS 2.5 degree 2011-10-08 00Z +72 h: all 22 variables", async () => {
    const refs = await references("gfs-2p5-2011100800.eccodes.jsonl");
    expect(refs.length).toBe(22);
    // Global grid 90N..90S, 0..357.5E; the store runs south to north from 90S.
    const n = compare("gfs-2p5-sample", "2011-10-08T00:00:00.000Z", refs, (_r, s) => ({ i: Math.round(s.lon / 2.5) % 144, j: Math.round((s.lat + 90) / 2.5) }));
    expect(n).toBe(22 * 32);
    expect(store.latest("gfs-2p5-sample")!.meta.absent).toEqual([]);
  });

  it("the step's --point option prints the same values (2 m temperature at 65.5N 170W, step 96)", async () => {
    const refs = await references("alaska.eccodes.jsonl");
    const ref = refs.find((r) => r.shortName === "2t" && String(r.stepRange) === "96" && r.samples.some((s) => s.lat === 65.5 && s.lon === 190))!;
    const sample = ref.samples.find((s) => s.lat === 65.5 && s.lon === 190)!;
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      await runForecast(["--point", "65.5,-170", "--model", "gfs-alaska-0p5"], { config: readConfig({ GEODATA_DATA_DIR: await defaultDatasetDir("forecast") }), logger: silentLogger });
    } finally {
      spy.mockRestore();
    }
    const printed = JSON.parse(lines.join("")) as { steps: number[]; cells: { lat: number; lon: number; weight: number; values: Record<string, number[]> }[] };
    const cell = printed.cells.find((c) => c.weight === 1)!;
    expect([cell.lat, cell.lon]).toEqual([65.5, -170]);
    expect(Math.abs(cell.values.temperature_2m![printed.steps.indexOf(96)]! - sample.value!)).toBeLessThanOrEqual(0.0051);
  });

  it("GFS Alaska sub-grids pasted across 180 degrees (0.5 and 2.5 degree domains)", async () => {
    const refs = await references("alaska.eccodes.jsonl");
    const fine = refs.filter((r) => r.Ni >= 40);
    const coarse = refs.filter((r) => r.Ni < 40);
    expect(compare("gfs-alaska-0p5", "2011-09-02T06:00:00.000Z", fine, (_r, s) => ({ i: Math.round((s.lon - 160) / 0.5), j: Math.round((s.lat - 55) / 0.5) }))).toBe(fine.length * 32);
    expect(compare("gfs-alaska-2p5", "2011-09-02T06:00:00.000Z", coarse, (_r, s) => ({ i: Math.round((s.lon - 160) / 2.5), j: Math.round((s.lat - 55) / 2.5) }))).toBe(coarse.length * 32);
  });

  it("GFS 0.5 degree GRIB1 (zyGrib): points located from their index, since the file's j increment is wrong", async () => {
    const refs = await references("iberia.eccodes.jsonl");
    // 85 x 47 points, first 48N 30W, rows north to south every 0.5 degree (first/last latitudes
    // 48 and 25 over 47 rows), whatever the stated increment (33.268, which ecCodes uses).
    const n = compare("gfs-iberia-grib1", "2013-02-14T06:00:00.000Z", refs, (_r, s) => {
      const row = Math.floor(s.index / 85);
      const col = s.index % 85;
      return { i: col, j: Math.round((48 - row * 0.5 - 25) / 0.5) };
    });
    expect(n).toBe(refs.length * 32);
    expect(store.latest("gfs-iberia-grib1")!.meta.absent).toContain("temperature_2m_max");
  });
});

const shared = needsSharedData(["grib/reference/eccodes", "grib/gfs", "grib/gfs-multistep"]);
const ECCODES = shared.path("grib", "reference", "eccodes");
const SHARED_GRIB = shared.path("grib");

shared.describe("forecast store vs every ecCodes reference message (shared data)", () => {
  it("the full sample files: all messages of our variables, every step", async () => {
    const ctx = await tempContext("fc-all-");
    cleanup.push(ctx.config.dataDir);
    await runForecast(["--model", "gfs-2p5-sample,gfs-iberia-grib1,gfs-alaska-0p5,gfs-alaska-2p5", "--source", `${path.join(SHARED_GRIB, "gfs")},${path.join(SHARED_GRIB, "gfs-multistep")}`], ctx);
    const all = await openForecastStore(path.join(ctx.config.dataDir, "forecast"));
    try {
      const surface = ["2t", "tmax", "tmin", "2r", "10u", "10v", "gust", "prmsl", "tp", "acpcp", "tcc", "lftx", "orog"];
      const twoFive = (await references("gfs.2011100800.f072.2p5deg.grib2.jsonl", ECCODES)).filter(
        (r) =>
          (surface.includes(r.shortName) && r.typeOfLevel !== "isobaricInhPa") ||
          (r.shortName === "t" && r.typeOfLevel === "isobaricInhPa" && [850, 925].includes(r.level)) ||
          (r.shortName === "gh" && r.typeOfLevel === "isothermZero") ||
          (r.parameterCategory === 3 && r.parameterNumber === 196),
      );
      expect(twoFive.length).toBe(22);
      expect(compare("gfs-2p5-sample", "2011-10-08T00:00:00.000Z", twoFive, (_r, s) => ({ i: Math.round(s.lon / 2.5) % 144, j: Math.round((s.lat + 90) / 2.5) }), all)).toBe(22 * 32);
      const alaska = await references("gfs-2011090206-alaska-subgrids-f000-f384.grib2.jsonl", ECCODES);
      expect(alaska.length).toBe(486);
      const fine = alaska.filter((r) => r.Ni >= 40);
      const coarse = alaska.filter((r) => r.Ni < 40);
      expect(compare("gfs-alaska-0p5", "2011-09-02T06:00:00.000Z", fine, (_r, s) => ({ i: Math.round((s.lon - 160) / 0.5), j: Math.round((s.lat - 55) / 0.5) }), all)).toBe(390 * 32);
      expect(compare("gfs-alaska-2p5", "2011-09-02T06:00:00.000Z", coarse, (_r, s) => ({ i: Math.round((s.lon - 160) / 2.5), j: Math.round((s.lat - 55) / 2.5) }), all)).toBe(96 * 32);
      const iberia = await references("gfs-0p5-zygrib-2013021406-f000-f072.grib1.jsonl", ECCODES);
      expect(iberia.length).toBe(102);
      const n = compare("gfs-iberia-grib1", "2013-02-14T06:00:00.000Z", iberia, (_r, s) => ({ i: s.index % 85, j: Math.round((48 - Math.floor(s.index / 85) * 0.5 - 25) / 0.5) }), all);
      expect(n).toBe(102 * 32);
    } finally {
      all.close();
    }
  }, 120_000);
});
