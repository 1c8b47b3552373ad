/**
 * /v1/forecast through Open-Meteo's official TypeScript client (`openmeteo`'s fetchWeatherApi,
 * which asks for format=flatbuffers and decodes with @openmeteo/sdk), against the real server on
 * the embedded default. The outside references: the client's own decoding, and our own
 * /weather/point answers at the same points, whose values (converted to the requested units with
 * Open-Meteo's factors) each hourly value must equal at the same instant; every hour without a
 * /weather/point slot must be null (NaN). Never a value copied from our compat output.
 */
import { fetchWeatherApi } from "openmeteo";
import type { WeatherApiResponse } from "@openmeteo/sdk/weather-api-response.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mulberry32 } from "../../../datasets/common/prng.ts";
import { startTestServer, TEST_KEY, type TestServer } from "../../helpers/server.ts";
import { weatherDataDir, type WeatherDataDir } from "../../helpers/weather-data.ts";
import { slotsOf } from "../weather/slot-shape.ts";

type Obj = Record<string, any>;

// Points inside the embedded default's 0.5° Iberia run (25-48°N, 30°W-12°E, 6-hourly, 2013-02-14T06Z
// to +72 h): Madrid, Lisbon, Seville, a point at sea, and seeded random points of the grid.
const random = mulberry32(32);
const POINTS: [number, number][] = [
  [40.4168, -3.7038],
  [38.7223, -9.1393],
  [37.3891, -5.9845],
  [41.0, -20.0],
  ...Array.from({ length: 4 }, (): [number, number] => [Number((27 + random() * 19).toFixed(3)), Number((-28 + random() * 38).toFixed(3))]),
];

/** Our /weather/point member for each Open-Meteo variable, and the conversion to Open-Meteo's default units (wind in km/h). */
const VARIABLES: [string, (slot: Obj) => number | null, (x: number) => number][] = [
  ["temperature_2m", (s) => s.temperature.surface.value, (x) => x],
  ["relative_humidity_2m", (s) => s.reltiveHumidity.value, (x) => x],
  ["wind_speed_10m", (s) => s.wind.speed.value, (x) => x * 3.6],
  ["wind_direction_10m", (s) => s.wind.direction.value, (x) => x],
  ["wind_gusts_10m", (s) => s.wind.gust.value, (x) => x * 3.6],
  ["pressure_msl", (s) => s.pressure.value, (x) => x],
  ["precipitation", (s) => s.precipitation.total.value, (x) => x],
  ["cloud_cover", (s) => s.clouds.total.value, (x) => x],
];

/** Epoch seconds of a local date and time in an IANA zone (no DST change in the Iberia run's February days). */
function epochOf(date: string, time: string, zone: string): number {
  const guess = Date.parse(`${date}T${time}:00Z`);
  const name = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" }).formatToParts(guess).find((p) => p.type === "timeZoneName")!.value;
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  const offset = m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
  return (guess - offset) / 1000;
}

/** /weather/point at a point: its slots by epoch second. */
async function pointSlots(server: TestServer, lat: number, lon: number): Promise<Map<number, Obj>> {
  const r = await server.get(`/weather/point/2/json?lat=${lat}&lon=${lon}`);
  expect(r.status).toBe(200);
  const zone = r.headers.get("x-forecast-timezone")!;
  const body = (await r.json()) as Obj;
  return new Map(slotsOf(body.content.weather).map((s) => [epochOf(s.date, s.time, zone), s.slot as Obj]));
}

/** Every hourly value of the SDK's answer against /weather/point's slot at the same instant. */
async function compareHourly(server: TestServer, responses: WeatherApiResponse[], variables: typeof VARIABLES, convert: (name: string, x: number) => number = (_n, x) => x): Promise<number> {
  expect(responses).toHaveLength(POINTS.length);
  let compared = 0;
  for (let p = 0; p < POINTS.length; p++) {
    const [lat, lon] = POINTS[p]!;
    const r = responses[p]!;
    expect(r.latitude()).toBeCloseTo(lat, 3);
    expect(r.longitude()).toBeCloseTo(lon, 3);
    const slots = await pointSlots(server, lat, lon);
    const hourly = r.hourly()!;
    const start = Number(hourly.time());
    const interval = hourly.interval();
    expect(interval).toBe(3600);
    const n = (Number(hourly.timeEnd()) - start) / interval;
    expect(hourly.variablesLength()).toBe(variables.length);
    let inWindow = 0;
    for (let k = 0; k < n; k++) if (slots.has(start + k * interval)) inWindow++;
    // The Iberia run's 13 steps lie in the 7-day window (some of them, on a live day).
    expect(inWindow).toBeGreaterThan(0);
    for (let v = 0; v < variables.length; v++) {
      const [name, pick, toOpenMeteo] = variables[v]!;
      const values = hourly.variables(v)!.valuesArray()!;
      expect(values.length).toBe(n);
      for (let k = 0; k < n; k++) {
        const slot = slots.get(start + k * interval);
        const ours = slot ? pick(slot) : null;
        const where = `${name} at ${lat},${lon}, hour ${k}`;
        if (ours === null) {
          expect(Number.isNaN(values[k]!), `${where}: null expected, got ${values[k]}`).toBe(true);
          continue;
        }
        const expected = convert(name, toOpenMeteo(ours));
        // float32 on the wire: 1e-6 relative, and 1e-4 absolute near 0.
        expect(Math.abs(values[k]! - expected), `${where}: ${values[k]} against /weather/point's ${expected}`).toBeLessThanOrEqual(Math.max(1e-4, Math.abs(expected) * 1e-6));
        compared++;
      }
    }
  }
  return compared;
}

const dirs: WeatherDataDir[] = [];
let oldRun: TestServer; // the real clock: the 2013 run is an old run
let live: TestServer; // the clock inside the run's first day
beforeAll(async () => {
  const d = await weatherDataDir({ datasets: ["places", "admin", "elevation", "forecast"] });
  dirs.push(d);
  oldRun = await startTestServer({ dataDir: d.dir });
  live = await startTestServer({ dataDir: d.dir, now: () => new Date("2013-02-14T09:30:00Z") });
}, 600_000);
afterAll(async () => {
  await oldRun?.close();
  await live?.close();
  for (const d of dirs) await d.remove();
});

const params = (extra: Obj = {}): Obj => ({
  latitude: POINTS.map((p) => p[0]),
  longitude: POINTS.map((p) => p[1]),
  hourly: VARIABLES.map((v) => v[0]),
  timezone: "Europe/Madrid",
  ...extra,
});

describe("the openmeteo client (fetchWeatherApi) against /v1/forecast", () => {
  it("several points, several hourly variables, a timezone, the key as apikey: every value equals /weather/point's, converted", async () => {
    const responses = await fetchWeatherApi(`${live.baseUrl}/v1/forecast`, params({ apikey: TEST_KEY }));
    for (const r of responses) {
      expect(r.timezone()).toBe("Europe/Madrid");
      expect(r.utcOffsetSeconds()).toBe(3600);
      expect(r.timezoneAbbreviation()).toBe("CET");
    }
    // Live day: the axis starts at 00:00 local of 2013-02-14 (23:00 UTC the day before).
    expect(Number(responses[0]!.hourly()!.time())).toBe(Date.parse("2013-02-13T23:00:00Z") / 1000);
    const compared = await compareHourly(live, responses, VARIABLES);
    expect(compared).toBeGreaterThan(POINTS.length * 10);
  });

  it("an old run (the real clock): the axis starts on the run's first day, and the values are still /weather/point's", async () => {
    const responses = await fetchWeatherApi(`${oldRun.baseUrl}/v1/forecast`, params(), 0, 0.2, 2, { headers: { "X-Api-Key": TEST_KEY } });
    expect(Number(responses[0]!.hourly()!.time())).toBe(Date.parse("2013-02-13T23:00:00Z") / 1000);
    expect(await compareHourly(oldRun, responses, VARIABLES)).toBeGreaterThan(POINTS.length * 40);
  });

  it("units: fahrenheit, m/s, inch (Open-Meteo's factors) on the same values", async () => {
    const responses = await fetchWeatherApi(`${live.baseUrl}/v1/forecast`, params({ apikey: TEST_KEY, temperature_unit: "fahrenheit", wind_speed_unit: "ms", precipitation_unit: "inch" }));
    const toUnits = (name: string, x: number): number => (name === "temperature_2m" ? (x * 9) / 5 + 32 : name.startsWith("wind_speed") || name.startsWith("wind_gusts") ? x / 3.6 : name === "precipitation" ? x / 25.4 : x);
    expect(await compareHourly(live, responses, VARIABLES, toUnits)).toBeGreaterThan(POINTS.length * 10);
  });

  it("a variable our store lacks is null at every hour, and GMT is the default zone", async () => {
    const responses = await fetchWeatherApi(`${live.baseUrl}/v1/forecast`, { latitude: 40.4168, longitude: -3.7038, hourly: "temperature_2m,weather_code,apparent_temperature", apikey: TEST_KEY });
    const r = responses[0]!;
    expect(r.utcOffsetSeconds()).toBe(0);
    const hourly = r.hourly()!;
    expect(Number(hourly.time())).toBe(Date.parse("2013-02-14T00:00:00Z") / 1000);
    for (const v of [1, 2]) expect([...hourly.variables(v)!.valuesArray()!].every((x) => Number.isNaN(x))).toBe(true);
    expect([...hourly.variables(0)!.valuesArray()!].some((x) => !Number.isNaN(x))).toBe(true);
  });

  it("an unknown variable: the client throws Open-Meteo's reason", async () => {
    await expect(fetchWeatherApi(`${live.baseUrl}/v1/forecast`, { latitude: 40, longitude: -3, hourly: "tempeture_2m", apikey: TEST_KEY }, 0)).rejects.toThrow(
      "Cannot initialize WeatherVariable from invalid String value tempeture_2m for key hourly",
    );
  });
});
