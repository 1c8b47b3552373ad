/**
 * The forecast store of the weather benches (untimed setup): a 7-day hourly run (168 steps) of
 * every slot variable on a 0.25° grid, built from real GFS 0.25° fields: the 57 x 41 window
 * (41-51°N, 5°W-9°E) of the shared analysis file gfs.20200314.t00z.pgrb2.0p25.anl (432 fields).
 * No real 7-day 0.25° series is available offline, so each variable's 168 steps are real fields of
 * a matching kind taken in turn (temperatures from the TMP fields of every level, humidity and
 * cloud cover from the RH fields, wind from the UGRD/VGRD fields, pressure from MSLET and PRES,
 * precipitation from PRATE as mm/h, lifted index from LFTX and 4LFTX, heights from HGT): real
 * spatial structure and value ranges, step-to-step changes larger than a model's (harder to
 * compress). Undefined when ../shared is absent.
 */
import { existsSync, promises as fs, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SHARED_DATA_DIR } from "../datasets/common/paths.ts";
import { writeIndex } from "../datasets/forecast/index-file.ts";
import { writeRunFile } from "../datasets/forecast/run-file.ts";
import { RunWriter } from "../datasets/forecast/run-writer.ts";
import { openForecastStore, type ForecastStore } from "../datasets/forecast/store.ts";
import type { RunMeta, StoredVariable } from "../datasets/forecast/types.ts";
import { variableDefinition } from "../datasets/forecast/variables.ts";
import { decodeField } from "../pipeline/grib/decode.ts";
import { scanGrib } from "../pipeline/grib/scan.ts";
import { SLOT_VARIABLES } from "../server/weather/point-series.ts";

export const BENCH_GRID = { lat0: 41, lon0: -5, dLat: 0.25, dLon: 0.25, nLat: 41, nLon: 57, wrapsLon: false };
export const BENCH_RUN_TIME = "2026-11-23T00:00:00.000Z";

export interface BenchWeatherStore {
  store: ForecastStore;
  source: string;
  runBytes: number;
  cells: number;
  steps: number;
  close(): Promise<void>;
}

export async function buildBenchWeatherStore(): Promise<BenchWeatherStore | undefined> {
  const SOURCE = path.join(SHARED_DATA_DIR, "grib", "gfs", "gfs.20200314.t00z.pgrb2.0p25.anl");
  if (!existsSync(SOURCE)) return undefined;

  const bytes = new Uint8Array(readFileSync(SOURCE));
  const fields = scanGrib(bytes, SOURCE);
  const NLON = 57;
  const NLAT = 41;
  const decoded = (f: (typeof fields)[number]): Float32Array => decodeField(bytes, f, SOURCE);
  const pool = (name: string, accept: (level: string) => boolean = () => true, map: (x: number) => number = (x) => x): Float32Array[] =>
    fields.filter((f) => f.shortName === name && f.numberOfPoints === NLON * NLAT && accept(f.level)).map((f) => decoded(f).map(map));
  const lowLevels = (level: string): boolean => / mb$/.test(level) ? Number(level.split(" ")[0]) >= 500 : true;
  const tmp = pool("TMP", lowLevels);
  const rh = pool("RH");
  const u = pool("UGRD");
  const v = pool("VGRD");
  const gust = u.map((a, k) => a.map((x, n) => Math.hypot(x, v[k]![n]!)));
  const pools: Record<string, Float32Array[]> = {
    temperature_2m: tmp,
    temperature_2m_max: tmp.map((a) => a.map((x) => x + 1.5)),
    temperature_2m_min: tmp.map((a) => a.map((x) => x - 1.5)),
    relative_humidity_2m: rh,
    wind_u_10m: u,
    wind_v_10m: v,
    wind_gust: gust,
    pressure_msl: [...pool("MSLET"), ...pool("PRES", (l) => l === "surface")],
    precipitation: pool("PRATE", () => true, (x) => x * 3600),
    precipitation_convective: pool("PRATE", () => true, (x) => x * 1800),
    cloud_cover: rh,
    cloud_cover_high: rh.slice(3),
    cloud_cover_mid: rh.slice(6),
    cloud_cover_low: rh.slice(9),
    cloud_cover_convective: rh.slice(12),
    cloud_cover_boundary_layer: rh.slice(15),
    lifted_index: [...pool("LFTX"), ...pool("4LFTX")],
    boundary_layer_height: pool("HGT", (l) => l === "925 mb" || l === "850 mb" || l === "1000 mb"),
    freezing_level_height: pool("HGT", (l) => l === "0C isotherm" || l === "highest tropospheric freezing level"),
    temperature_925hPa: pool("TMP", (l) => l === "925 mb"),
    temperature_850hPa: pool("TMP", (l) => l === "850 mb"),
    surface_height: pool("HGT", (l) => l === "surface"),
  };
  for (const name of SLOT_VARIABLES) if (!pools[name]?.length) throw new Error(`no real field for ${name} in ${SOURCE}`);

  const N_STEPS = 168;
  const variables: StoredVariable[] = SLOT_VARIABLES.map((name) => {
    const d = variableDefinition(name)!;
    const aggregation = name === "precipitation" || name === "precipitation_convective" ? "sum" : name === "temperature_2m_max" ? "max" : name === "temperature_2m_min" ? "min" : "instant";
    return { name, unit: d.unit, scale: d.scale, offset: d.offset, aggregation };
  });
  const runTime = BENCH_RUN_TIME;
  const meta: RunMeta = {
    model: "bench-gfs025",
    runTime,
    steps: Array.from({ length: N_STEPS }, (_, k) => k),
    intervalStart: Array.from({ length: N_STEPS }, (_, k) => Math.max(0, k - 1)),
    grid: BENCH_GRID,
    tile: { lat: 4, lon: 4 },
    variables,
    absent: [],
  };
  const cells = NLAT * NLON;
  const series = SLOT_VARIABLES.map((name, vi) => {
    const p = pools[name]!;
    const a = new Float32Array(cells * N_STEPS);
    for (let s = 0; s < N_STEPS; s++) {
      const field = name === "surface_height" ? p[0]! : p[(s * 7 + vi) % p.length]!;
      for (let c = 0; c < cells; c++) a[c * N_STEPS + s] = field[c]!;
    }
    return a;
  });
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "weather-bench-"));
  const forecastDir = path.join(work, "forecast");
  await fs.mkdir(path.join(forecastDir, "bench-gfs025"), { recursive: true });
  const writer = new RunWriter(meta);
  for (let band = writer.nextBand(); band; band = writer.nextBand()) {
    const from = band.firstRow * NLON * N_STEPS;
    writer.add(series.map((a) => a.subarray(from, from + band.rows * NLON * N_STEPS)));
  }
  const runFile = path.join(forecastDir, "bench-gfs025", "2026112300.fcst");
  await writeRunFile(runFile, meta, writer.finish(), []);
  const runBytes = (await fs.stat(runFile)).size;
  await writeIndex(path.join(forecastDir, "index.bin"), { runs: [{ model: meta.model, runTime, file: "bench-gfs025/2026112300.fcst", steps: N_STEPS, variables: SLOT_VARIABLES.slice(), bytes: runBytes }] }, []);
  const store = await openForecastStore(forecastDir);
  

  return {
    store,
    source: SOURCE,
    runBytes,
    cells,
    steps: N_STEPS,
    close: async () => {
      store.close();
      if (process.env.KEEP_BENCH_STORE) console.log("store kept in", forecastDir);
      else await fs.rm(work, { recursive: true, force: true });
    },
  };
}
