/**
 * /weather/id through the real server: each section equals the single endpoint's answer
 * (/geocode/id, /elevation/point, /weather/point at the place's coordinates, byte for byte), the
 * daily section follows the published aggregations of the hourly one, and with the real 1° GFS
 * precipitation series the daily sums equal the windows read straight from the GRIB running totals.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { decodeField } from "../../../pipeline/grib/decode.ts";
import { scanGrib } from "../../../pipeline/grib/scan.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { weatherDataDir, type WeatherDataDir } from "../../helpers/weather-data.ts";
import { expectSlotShape, slotsOf } from "./slot-shape.ts";

// JSON read back from the server: members are reached by the spec's names.
type Obj = Record<string, any>;

const dirs: WeatherDataDir[] = [];
const servers: TestServer[] = [];
async function serve(options: Parameters<typeof weatherDataDir>[0]): Promise<TestServer> {
  const d = await weatherDataDir(options);
  dirs.push(d);
  const s = await startTestServer({ dataDir: d.dir });
  servers.push(s);
  return s;
}
let full: TestServer;
beforeAll(async () => {
  full = await serve({ datasets: ["places", "admin", "elevation", "stations", "forecast"] });
}, 600_000);
afterAll(async () => {
  for (const s of servers) await s.close();
  for (const d of dirs) await d.remove();
});

async function get(server: TestServer, pathAndQuery: string): Promise<{ status: number; headers: Headers; text: string; body: Obj }> {
  const r = await server.get(pathAndQuery);
  const text = await r.text();
  return { status: r.status, headers: r.headers, text, body: JSON.parse(text) as Obj };
}

/** The administrative description without the members that move with the request's instant. */
function withoutInstant(administrative: Obj): Obj {
  const { UNIXTimestamp: _u, timeFormatted: _t, ...timezone } = administrative.timezone;
  return { ...administrative, timezone };
}

const values = (slots: Obj[], pick: (s: Obj) => { value: number | null }): number[] => slots.map(pick).map((m) => m.value).filter((v): v is number => v !== null);

/** The daily aggregate recomputed from a date's slots by the published definitions. */
function expectDailyFollowsHourly(daily: Obj, slots: Obj[]): void {
  const close = (got: number | null, want: number | null, tol: number, what: string): void => {
    if (want === null) expect(got, what).toBeNull();
    else expect(Math.abs(got! - want), `${what}: got ${got}, want ${want}`).toBeLessThanOrEqual(tol);
  };
  const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
  const sum = (xs: number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) : null);
  for (const k of ["total", "high", "middle", "low", "convective", "boundary"]) close(daily.clouds[k].value, mean(values(slots, (s) => s.clouds[k])), 0.5, `clouds.${k}`);
  close(daily.precipitation.total.value, sum(values(slots, (s) => s.precipitation.total)), 0.005, "precipitation.total");
  close(daily.precipitation.convective.value, sum(values(slots, (s) => s.precipitation.convective)), 0.005, "precipitation.convective");
  const ps = values(slots, (s) => s.precipitation.probability);
  close(daily.precipitation.probability.value, ps.length ? 100 * (1 - ps.reduce((a, p) => a * (1 - p / 100), 1)) : null, 0.5, "precipitation.probability");
  const mins = values(slots, (s) => s.temperature.min);
  const maxs = values(slots, (s) => s.temperature.max);
  close(daily.temperature.min.value, mins.length ? Math.min(...mins) : null, 0, "temperature.min");
  close(daily.temperature.max.value, maxs.length ? Math.max(...maxs) : null, 0, "temperature.max");
  const speeds = values(slots, (s) => s.wind.speed);
  const gusts = values(slots, (s) => s.wind.gust);
  close(daily.wind.speed.value, speeds.length ? Math.max(...speeds) : null, 0, "wind.speed");
  close(daily.wind.gust.value, gusts.length ? Math.max(...gusts) : null, 0, "wind.gust");
  const li = values(slots, (s) => s.liftedIndex);
  close(daily.liftedIndex.value, li.length ? Math.min(...li) : null, 0, "liftedIndex");
  expect(Object.keys(daily).sort()).toEqual(["clouds", "liftedIndex", "precipitation", "temperature", "wind"]);
  expect(Object.keys(daily.temperature).sort()).toEqual(["max", "min"]);
  expect(Object.keys(daily.wind).sort()).toEqual(["gust", "speed"]);
}

describe("each section equals the single endpoint's answer", () => {
  // Berlin, Madrid (the Iberian 0.5° run), Kolkata (a half-hour zone), North Pole (Alaska), Troianul (44°N 25°E).
  for (const id of ["gn:2950159", "gn:3117735", "gn:1275004", "gn:5870294", "gn:664591"]) {
    it(id, async () => {
      const answer = await get(full, `/weather/id/2/json?id=${id}`);
      expect(answer.status).toBe(200);
      const c = answer.body.content;
      expect(Object.keys(c).sort()).toEqual(["administrative", "elevation", "point", "weather"]);
      const geocode = (await get(full, `/geocode/id/2/json?id=${id}`)).body.content;
      expect(c.point).toEqual(geocode.point);
      expect(withoutInstant(c.administrative)).toEqual(withoutInstant(geocode.administrative));
      const { lat, lon } = c.point;
      const elevation = await get(full, `/elevation/point/2/json?lat=${lat}&lon=${lon}`);
      expect(c.elevation).toEqual(elevation.body.content.elevation);
      expect(answer.headers.get("x-elevation-source")).toBe(elevation.headers.get("x-elevation-source"));
      const point = await get(full, `/weather/point/2/json?lat=${lat}&lon=${lon}`);
      // Byte for byte: the same slots, serialised the same way.
      expect(JSON.stringify(c.weather.hourly)).toBe(JSON.stringify(point.body.content.weather));
      for (const h of ["x-forecast-model", "x-forecast-run", "x-forecast-resolution", "x-forecast-timezone", "x-forecast-height-correction"]) expect(answer.headers.get(h), h).toBe(point.headers.get(h));
      // current: the local date and time of the administrative description's instant.
      const formatted: string = c.administrative.timezone.timeFormatted;
      expect(c.weather.current).toEqual({ date: formatted.slice(0, 10), hour: formatted.slice(11, 16) });
      // daily: one per date of hourly, in order, following the published aggregations.
      const hourlyDates = c.weather.hourly.map((d: Obj) => Object.keys(d)[0]);
      expect(c.weather.daily.map((d: Obj) => Object.keys(d)[0])).toEqual(hourlyDates);
      for (let n = 0; n < hourlyDates.length; n++) {
        const slots = slotsOf([c.weather.hourly[n]]).map((s) => s.slot);
        for (const s of slots) expectSlotShape(s);
        expectDailyFollowsHourly(c.weather.daily[n][hourlyDates[n]], slots);
      }
    });
  }

  it("Kolkata's slots are at half past the hour (UTC+5:30)", async () => {
    const c = (await get(full, "/weather/id/2/json?id=gn:1275004")).body.content;
    expect(slotsOf(c.weather.hourly).map((s) => `${s.date} ${s.time}`)).toEqual(["2011-10-11 05:30"]);
  });
});

describe("daily sums against the GRIB running totals (GFS 1°, 2022-06-27 00Z)", () => {
  it("Troianul (gn:664591, on the 44°N 25°E grid node): each local day's total is the sum of its windows", async () => {
    const server = await serve({ datasets: ["places", "admin", "elevation", "forecast"], forecastModels: ["gfs-1p0-precip"] });
    const file = path.join(PROJECT_ROOT, "datasets/embedded/grib/GFS_Global_onedeg_20220627_0000.TotalPrecip.Out48hrs.grib2");
    const bytes = new Uint8Array(readFileSync(file));
    const fields = scanGrib(bytes, file);
    // Scanning order: 90°N to 90°S, 0°E eastwards, 1°; anchored on ecCodes' value at 46°N 10°E.
    const at = (values: Float32Array, lat: number, lon: number): number => values[(90 - lat) * 360 + lon]!;
    const totals = new Map<number, number>();
    for (const f of fields) if (f.startHour === 0) totals.set(f.endHour, at(decodeField(bytes, f, file), 44, 25));
    const reference = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "test/fixtures/forecast/onedeg-precip-eccodes.json"), "utf8")) as Obj;
    const alps = reference.files["GFS_Global_onedeg_20220627_0000.TotalPrecip.Out48hrs.grib2"].find((p: Obj) => p.lat === 46 && p.lon === 10);
    const first = fields.find((f) => f.startHour === 0 && f.endHour === 3)!;
    expect(at(decodeField(bytes, first, file), 46, 10)).toBeCloseTo(alps.messages.find((m: Obj) => m.stepRange === "0-3").value, 4);

    // Windows (k-3, k] from the running totals; local dates in Europe/Bucharest (EEST, UTC+3 in June).
    const expected = new Map<string, number>();
    for (let k = 3; k <= 48; k += 3) {
      const window = totals.get(k)! - (k === 3 ? 0 : totals.get(k - 3)!);
      const local = new Date(Date.UTC(2022, 5, 27, k + 3));
      const date = local.toISOString().slice(0, 10);
      expected.set(date, (expected.get(date) ?? 0) + window);
    }
    const answer = await get(server, "/weather/id/2/json?id=gn:664591");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-forecast-model")).toBe("gfs-1p0-precip");
    const daily = answer.body.content.weather.daily as Obj[];
    expect(daily.map((d) => Object.keys(d)[0])).toEqual([...expected.keys()]);
    const slots = slotsOf(answer.body.content.weather.hourly);
    expect(slots.map((s) => s.time).slice(0, 3)).toEqual(["06:00", "09:00", "12:00"]);
    for (const d of daily) {
      const [date, day] = Object.entries(d)[0]!;
      const n = slots.filter((s) => s.date === date).length;
      // Each slot is rounded to 0.01 mm before the sum: at most 0.005 mm each.
      expect(Math.abs(day.precipitation.total.value - expected.get(date)!), date).toBeLessThanOrEqual(0.005 * n + 1e-6);
      expect(day.temperature.min).toEqual({ value: null, unit: "°C", color: null }); // precipitation-only model
    }
    expect([...expected.values()].some((v) => v > 0.1)).toBe(true); // it rained at the node
  });
});

describe("no coverage and errors", () => {
  it("a place no loaded model covers: administrative, point and elevation, empty daily and hourly, a header saying why", async () => {
    const server = await serve({ datasets: ["places", "admin", "elevation", "forecast"], forecastModels: ["gfs-iberia-grib1"] });
    const answer = await get(server, "/weather/id/2/json?id=gn:2950159");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-forecast-coverage")).toBe("none");
    const c = answer.body.content;
    expect(c.point.name).toBe("Berlin");
    expect(c.administrative.country.ISO2).toBe("DE");
    expect(c.elevation.unit).toBe("m");
    expect(c.weather.daily).toEqual([]);
    expect(c.weather.hourly).toEqual([]);
    expect(c.weather.current.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("a malformed id is a 400 naming it; an unknown one a 404", async () => {
    const bad = await get(full, "/weather/id/2/json?id=berlin");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("id");
    expect(bad.body.message).toContain("berlin");
    const unknown = await get(full, "/weather/id/2/json?id=gn:1");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ status: "error", code: 404, message: "No place with id \"gn:1\"." });
  });
});
