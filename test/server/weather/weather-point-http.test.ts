/**
 * /weather/point through the real server on the embedded default:
 * - at grid nodes of the GFS 2.5° sample, every member against ecCodes 2.28's values of the same
 *   GRIB file (test/fixtures/forecast/gfs-2p5-2011100800.eccodes.jsonl), with no elevation
 *   dataset so that no height correction applies;
 * - between nodes, against a hand bilinear computation from the four nodes decoded from the GRIB;
 * - the height correction, the model choice (regional, partial, none), local dates, the full shape.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { mulberry32 } from "../../../datasets/common/prng.ts";
import { decodeField } from "../../../pipeline/grib/decode.ts";
import { scanGrib } from "../../../pipeline/grib/scan.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { weatherDataDir, type WeatherDataDir } from "../../helpers/weather-data.ts";
import { expectSlotShape, slotsOf } from "./slot-shape.ts";

interface Sample { index: number; lat: number; lon: number; value: number }
interface RefMessage { shortName: string; typeOfLevel: string; level: number; samples: Sample[] }

const REFS: RefMessage[] = readFileSync(path.join(PROJECT_ROOT, "test/fixtures/forecast/gfs-2p5-2011100800.eccodes.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as RefMessage);
const ref = (shortName: string, typeOfLevel?: string): RefMessage => REFS.find((m) => m.shortName === shortName && (typeOfLevel === undefined || m.typeOfLevel === typeOfLevel))!;

// JSON read back from the server: members are reached by the spec's names.
type Obj = Record<string, any>;

const dirs: WeatherDataDir[] = [];
let plain: TestServer; // forecast + admin: no height correction
let full: TestServer; // every dataset
async function serve(datasets: Parameters<typeof weatherDataDir>[0]): Promise<TestServer> {
  const d = await weatherDataDir(datasets);
  dirs.push(d);
  return startTestServer({ dataDir: d.dir });
}

beforeAll(async () => {
  plain = await serve({ datasets: ["admin", "forecast"] });
  full = await serve({ datasets: ["places", "admin", "elevation", "stations", "forecast"] });
}, 600_000);
afterAll(async () => {
  await plain?.close();
  await full?.close();
  for (const d of dirs) await d.remove();
});

async function weather(server: TestServer, lat: number, lon: number): Promise<{ status: number; headers: Headers; body: Obj }> {
  const r = await server.get(`/weather/point/2/json?lat=${lat}&lon=${lon}`);
  return { status: r.status, headers: r.headers, body: (await r.json()) as Obj };
}

const toRequestLon = (lon: number): number => (lon > 180 ? lon - 360 : lon);

describe("at grid nodes: equal to ecCodes", () => {
  const checks: [string, string | undefined, (slot: Obj) => number | null, (v: number) => number, number][] = [
    ["2t", undefined, (s) => s.temperature.surface.value, (v) => v - 273.15, 0.1],
    ["tmax", undefined, (s) => s.temperature.max.value, (v) => v - 273.15, 0.1],
    ["tmin", undefined, (s) => s.temperature.min.value, (v) => v - 273.15, 0.1],
    ["2r", undefined, (s) => s.reltiveHumidity.value, (v) => v, 1],
    ["prmsl", undefined, (s) => s.pressure.value, (v) => v / 100, 0.1],
    ["tp", undefined, (s) => s.precipitation.total.value, (v) => v, 0.01],
    ["acpcp", undefined, (s) => s.precipitation.convective.value, (v) => v, 0.01],
    ["lftx", undefined, (s) => s.liftedIndex.value, (v) => v, 0.1],
    ["unknown", "surface", (s) => s.HPBL.value, (v) => v, 1],
    ["gh", "isothermZero", (s) => s.isotherm.value, (v) => v, 1],
    ["gust", undefined, (s) => s.wind.gust.value, (v) => v, 0.1],
    ["tcc", "atmosphereSingleLayer", (s) => s.clouds.total.value, (v) => v, 1],
    ["tcc", "highCloudLayer", (s) => s.clouds.high.value, (v) => v, 1],
    ["tcc", "middleCloudLayer", (s) => s.clouds.middle.value, (v) => v, 1],
    ["tcc", "lowCloudLayer", (s) => s.clouds.low.value, (v) => v, 1],
    ["tcc", "convectiveCloudLayer", (s) => s.clouds.convective.value, (v) => v, 1],
    ["tcc", "boundaryLayerCloudLayer", (s) => s.clouds.boundary.value, (v) => v, 1],
  ];

  it("every member at the 32 ecCodes sample nodes answered by the 2.5° run (one output unit of tolerance)", async () => {
    const u = ref("10u");
    const v = ref("10v");
    let compared = 0;
    for (let n = 0; n < u.samples.length; n++) {
      const node = u.samples[n]!;
      const { status, headers, body } = await weather(plain, node.lat, toRequestLon(node.lon));
      expect(status).toBe(200);
      if (headers.get("x-forecast-model") !== "gfs-2p5-sample") continue; // a finer regional run answers there
      expect(headers.get("x-forecast-run")).toBe("2011-10-08T00:00:00Z");
      const slots = slotsOf(body.content.weather);
      expect(slots).toHaveLength(1);
      const slot = slots[0]!.slot;
      for (const [shortName, level, pick, convert, tolerance] of checks) {
        const expected = convert(ref(shortName, level).samples[n]!.value);
        const where = `${shortName} ${level ?? ""} at ${node.lat},${node.lon}`;
        expect(pick(slot), where).not.toBeNull();
        expect(Math.abs(pick(slot)! - expected), `${where}: got ${pick(slot)}, ecCodes ${expected}`).toBeLessThanOrEqual(tolerance + 1e-9);
      }
      const ue = u.samples[n]!.value;
      const ve = v.samples[n]!.value;
      expect(Math.abs(slot.wind.speed.value - Math.hypot(ue, ve))).toBeLessThanOrEqual(0.1 + 1e-9);
      if (Math.hypot(ue, ve) > 1) {
        // Meteorological direction: where the wind comes from, clockwise from north.
        const from = ((Math.atan2(-ue, -ve) * 180) / Math.PI + 360) % 360;
        const diff = Math.abs(((slot.wind.direction.value - from + 540) % 360) - 180);
        expect(diff, `direction at ${node.lat},${node.lon}`).toBeLessThanOrEqual(1);
      }
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(28);
  });

  it("isInversion follows the 925/850 hPa temperatures of ecCodes against the 2 m air", async () => {
    const t2 = ref("2t");
    const t925 = REFS.find((m) => m.shortName === "t" && m.level === 925)!;
    const t850 = REFS.find((m) => m.shortName === "t" && m.level === 850)!;
    const msl = ref("prmsl");
    const orog = ref("orog");
    let inversions = 0;
    for (let n = 0; n < t2.samples.length; n++) {
      const node = t2.samples[n]!;
      const { headers, body } = await weather(plain, node.lat, toRequestLon(node.lon));
      if (headers.get("x-forecast-model") !== "gfs-2p5-sample") continue;
      // ISA surface pressure from MSL pressure and the model's orography (ICAO standard atmosphere).
      const ps = msl.samples[n]!.value * Math.pow(1 - (0.0065 * orog.samples[n]!.value) / 288.15, 5.25588);
      const level = ps > 92500 ? t925.samples[n]!.value : ps > 85000 ? t850.samples[n]!.value : NaN;
      const expected = level > t2.samples[n]!.value ? 1 : 0;
      inversions += expected;
      expect(slotsOf(body.content.weather)[0]!.slot.temperature.isInversion, `at ${node.lat},${node.lon}`).toBe(expected);
    }
    expect(inversions).toBeGreaterThan(0); // the sample has polar inversions (Antarctica, Siberia)
  });
});

describe("between grid nodes: bilinear", () => {
  const file = path.join(PROJECT_ROOT, "datasets/embedded/grib/gfs.2011100800.f072.2p5deg.grib2");
  const bytes = new Uint8Array(readFileSync(file));
  const fields = scanGrib(bytes, file);
  const decoded = (category: number, number: number, levelType: number): Float32Array =>
    decodeField(bytes, fields.find((f) => f.discipline === 0 && f.category === category && f.number === number && f.levelType === levelType)!, file);
  const t2 = decoded(0, 0, 103);
  const u = decoded(2, 2, 103);
  const v = decoded(2, 3, 103);
  const msl = decoded(3, 1, 101);
  // Scanning order of the file: north to south from 90°N, west to east from 0°E, 2.5°.
  const at = (values: Float32Array, lat: number, lon: number): number => values[((90 - lat) / 2.5) * 144 + (((lon % 360) + 360) % 360) / 2.5]!;
  function bilinear(values: Float32Array, lat: number, lon: number): number {
    const lat0 = Math.floor(lat / 2.5) * 2.5;
    const lon0 = Math.floor(lon / 2.5) * 2.5;
    const fy = (lat - lat0) / 2.5;
    const fx = (lon - lon0) / 2.5;
    return (
      at(values, lat0, lon0) * (1 - fx) * (1 - fy) +
      at(values, lat0, lon0 + 2.5) * fx * (1 - fy) +
      at(values, lat0 + 2.5, lon0) * (1 - fx) * fy +
      at(values, lat0 + 2.5, lon0 + 2.5) * fx * fy
    );
  }

  for (const [name, lat, lon] of [
    ["Berlin", 52.52, 13.405],
    ["Sydney", -33.87, 151.21],
    ["west of the antimeridian", -17.3, 179.2],
    ["east of the antimeridian", -17.3, -179.2],
    ["near the North Pole", 89.1, 33.3],
  ] as const) {
    it(`${name} (${lat}, ${lon}): temperature, pressure and wind from the four decoded nodes`, async () => {
      const { headers, body } = await weather(plain, lat, lon);
      expect(headers.get("x-forecast-model")).toBe("gfs-2p5-sample");
      const slot = slotsOf(body.content.weather)[0]!.slot;
      expect(Math.abs(slot.temperature.surface.value - (bilinear(t2, lat, lon) - 273.15))).toBeLessThanOrEqual(0.05 + 0.01);
      expect(Math.abs(slot.pressure.value - bilinear(msl, lat, lon) / 100)).toBeLessThanOrEqual(0.05 + 0.01);
      // Wind: u and v interpolated, then the speed (never the speeds interpolated).
      expect(Math.abs(slot.wind.speed.value - Math.hypot(bilinear(u, lat, lon), bilinear(v, lat, lon)))).toBeLessThanOrEqual(0.05 + 0.01);
    });
  }

  it("the antimeridian is continuous: 179.99 and -179.99 answer alike", async () => {
    const a = slotsOf((await weather(plain, 10, 179.99)).body.content.weather)[0]!.slot;
    const b = slotsOf((await weather(plain, 10, -179.99)).body.content.weather)[0]!.slot;
    expect(Math.abs(a.temperature.surface.value - b.temperature.surface.value)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(a.pressure.value - b.pressure.value)).toBeLessThanOrEqual(0.1);
  });
});

describe("height correction", () => {
  it("2 m temperatures move by 6.5 K/km from the model surface to the DEM height the header names", async () => {
    for (const [lat, lon] of [[0.5, 10.5], [-45.5, -65.5], [61.2, -149.9], [27.99, 86.93]] as const) {
      const corrected = await weather(full, lat, lon);
      const raw = await weather(plain, lat, lon);
      expect(raw.headers.get("x-forecast-height-correction")).toBe("none; reason=elevation-dataset-not-loaded");
      const header = corrected.headers.get("x-forecast-height-correction")!;
      const m = /^lapse-rate; model-surface=(-?\d+)m; point=(-?\d+)m; dem=(\w+)$/.exec(header);
      expect(m, header).not.toBeNull();
      const delta = -0.0065 * (Number(m![2]) - Number(m![1]));
      const c = slotsOf(corrected.body.content.weather)[0]!.slot.temperature;
      const r = slotsOf(raw.body.content.weather)[0]!.slot.temperature;
      // Heights in the header are whole metres (±0.5 m → ±0.007 K), outputs one decimal.
      for (const k of ["surface", "min", "max"]) expect(Math.abs(c[k].value - (r[k].value + delta)), `${k} at ${lat},${lon}`).toBeLessThanOrEqual(0.1 + 0.01);
    }
  });

  it("the elevation endpoint and the header agree on the point's height", async () => {
    const e = (await (await full.get("/elevation/point/2/json?lat=0.5&lon=10.5")).json()) as Obj;
    const header = (await weather(full, 0.5, 10.5)).headers.get("x-forecast-height-correction")!;
    expect(header).toContain(`point=${e.content.elevation.value}m; dem=srtm3`);
  });
});

describe("model choice", () => {
  it("a point in the Iberian 0.5° extract is answered by it, with nulls for what zyGrib left out", async () => {
    const { headers, body } = await weather(plain, 40.4, -3.7);
    expect(headers.get("x-forecast-model")).toBe("gfs-iberia-grib1");
    expect(headers.get("x-forecast-resolution")).toBe("0.5deg");
    expect(headers.get("x-forecast-run")).toBe("2013-02-14T06:00:00Z");
    expect(headers.get("x-forecast-height-correction")).toBe("none; reason=model-has-no-surface-height");
    const slots = slotsOf(body.content.weather);
    expect(slots).toHaveLength(13); // steps 0 to 72 every 6 hours
    for (const { slot } of slots) {
      expectSlotShape(slot);
      expect(slot.liftedIndex).toEqual({ value: null, unit: "K" });
      expect(slot.HPBL).toEqual({ value: null, unit: "m" });
      expect(slot.clouds.high).toEqual({ value: null, unit: "%" });
      expect(slot.temperature.surface.value).not.toBeNull();
      expect(slot.pressure.value).not.toBeNull();
    }
    // Step 0 has no window: no precipitation amount; the next ones have one.
    expect(slots[0]!.slot.precipitation.total.value).toBeNull();
    expect(slots[1]!.slot.precipitation.total.value).not.toBeNull();
  });

  it("a partial run never hides a full one: Nome gets the full 2.5° run, not the finer Alaska temperature extract", async () => {
    const { headers } = await weather(plain, 64.5, -165.4);
    expect(headers.get("x-forecast-model")).toBe("gfs-2p5-sample");
  });

  it("with only a partial run loaded, it answers where it covers (nulls for the rest) and 404 elsewhere", async () => {
    const server = await serve({ datasets: ["admin", "forecast"], forecastModels: ["gfs-alaska-0p5"] });
    try {
      // Nome, and a point of the same extract west of the antimeridian (its grid runs 160°E-160°W).
      expect((await weather(server, 60, 175)).headers.get("x-forecast-model")).toBe("gfs-alaska-0p5");
      const { status, headers, body } = await weather(server, 64.5, -165.4);
      expect(status).toBe(200);
      expect(headers.get("x-forecast-model")).toBe("gfs-alaska-0p5");
      const slots = slotsOf(body.content.weather);
      expect(slots.length).toBeGreaterThan(40);
      for (const { slot } of slots) {
        expectSlotShape(slot);
        expect(slot.wind.speed.value).toBeNull();
        expect(slot.wind.direction).toEqual({ value: null, unit: "°", icon: null });
        expect(slot.pressure.value).toBeNull();
        expect(slot.reltiveHumidity.value).not.toBeNull();
      }
      const outside = await weather(server, 52.52, 13.405);
      expect(outside.status).toBe(404);
      expect(outside.body).toEqual({ status: "error", code: 404, message: "No loaded forecast model covers lat 52.52, lon 13.405." });
    } finally {
      await server.close();
    }
  });
});

describe("local dates and times", () => {
  it("Madrid in February is UTC+1: the 06 UTC run's steps are 07:00, 13:00, 19:00, 01:00", async () => {
    const { headers, body } = await weather(plain, 40.4, -3.7);
    expect(headers.get("x-forecast-timezone")).toBe("Europe/Madrid");
    const slots = slotsOf(body.content.weather);
    expect(slots.slice(0, 4).map((s) => `${s.date} ${s.time}`)).toEqual(["2013-02-14 07:00", "2013-02-14 13:00", "2013-02-14 19:00", "2013-02-15 01:00"]);
    expect(body.content.weather.map((d: Obj) => Object.keys(d)[0])).toEqual(["2013-02-14", "2013-02-15", "2013-02-16", "2013-02-17"]);
  });

  it("Kolkata is UTC+5:30: 2011-10-11 00 UTC is 05:30", async () => {
    const { headers, body } = await weather(plain, 22.57, 88.36);
    expect(headers.get("x-forecast-timezone")).toBe("Asia/Kolkata");
    expect(slotsOf(body.content.weather).map((s) => `${s.date} ${s.time}`)).toEqual(["2011-10-11 05:30"]);
  });

  it("Chatham is UTC+13:45 in October (daylight time): 2011-10-11 13:45", async () => {
    const { body } = await weather(plain, -43.95, -176.55);
    expect(slotsOf(body.content.weather).map((s) => `${s.date} ${s.time}`)).toEqual(["2011-10-11 13:45"]);
  });
});

describe("shape", () => {
  it("every member present with its type and unit at 60 seeded points over land and sea", async () => {
    const random = mulberry32(20261123);
    for (let n = 0; n < 60; n++) {
      const lat = Math.round((random() * 180 - 90) * 1000) / 1000;
      const lon = Math.round((random() * 360 - 180) * 1000) / 1000;
      const { status, headers, body } = await weather(full, lat, lon);
      expect(status, `${lat},${lon}`).toBe(200);
      expect(headers.get("x-forecast-model")).toMatch(/^gfs-/);
      expect(body.status).toBe("OK");
      const slots = slotsOf(body.content.weather);
      expect(slots.length).toBeGreaterThan(0);
      for (const { slot } of slots) expectSlotShape(slot, `${lat},${lon}`);
    }
  });
});
