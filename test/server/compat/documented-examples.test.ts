/**
 * The compatible endpoints against the JSON examples the original APIs document, field for field:
 * every member of an example is in our answer with the same JSON type, and we add none but those
 * the original's own writer adds (named below). Where the example's value is a fact of a shared
 * source (GeoNames ids and names, CLDR country names, the error texts), the value must match too.
 * Sources, quoted as data (arrays the docs elide with "..." are cut):
 * - open-meteo/open-meteo-website @770a37b36bc0821577f01d3c11b4195f04a2ee39,
 *   src/lib/components/code/docs/{weather-forecast,elevation,geocoding}-{object,error}.svx;
 * - komoot/photon @a7b6562d687ce06954e82bce501b68a4853d53ba, docs/api-v1.md ("Example response").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDefaultData } from "../../helpers/default-data.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const FORECAST_OBJECT: Obj = {
  latitude: 52.52,
  longitude: 13.419,
  elevation: 44.812,
  generationtime_ms: 2.2119,
  utc_offset_seconds: 0,
  timezone: "Europe/Berlin",
  timezone_abbreviation: "CEST",
  hourly: { time: ["2022-07-01T00:00", "2022-07-01T01:00", "2022-07-01T02:00"], temperature_2m: [13, 12.7, 12.7, 12.5, 12.5, 12.8, 13, 12.9, 13.3] },
  hourly_units: { temperature_2m: "°C" },
};
const FORECAST_ERROR: Obj = { error: true, reason: "Cannot initialize WeatherVariable from invalid String value\n\t    tempeture_2m for key hourly" };
const ELEVATION_OBJECT: Obj = { elevation: [38.0] };
const ELEVATION_ERROR: Obj = { error: true, reason: "Latitude must be in range of -90 to 90°. Given: 522.52." };
const GEOCODING_OBJECT: Obj = {
  results: [
    {
      id: 2950159,
      name: "Berlin",
      latitude: 52.52437,
      longitude: 13.41053,
      elevation: 74.0,
      feature_code: "PPLC",
      country_code: "DE",
      admin1_id: 2950157,
      admin2_id: 0,
      admin3_id: 6547383,
      admin4_id: 6547539,
      timezone: "Europe/Berlin",
      population: 3426354,
      postcodes: ["10967", "13347"],
      country_id: 2921044,
      country: "Deutschland",
      admin1: "Berlin",
      admin2: "",
      admin3: "Berlin, Stadt",
      admin4: "Berlin",
    },
  ],
};
const GEOCODING_ERROR: Obj = { error: true, reason: "Parameter count must be between 1 and 100." };
const PHOTON_OBJECT: Obj = {
  features: [
    {
      properties: { name: "Berlin", state: "Berlin", country: "Germany", countrycode: "DE", osm_key: "place", osm_value: "city", osm_type: "N", osm_id: 240109189 },
      type: "Feature",
      geometry: { type: "Point", coordinates: [13.3888599, 52.5170365] },
    },
  ],
};

const typeOf = (v: Json): string => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/**
 * Every member of `example` is in `ours` with the same type, recursively (array items against the
 * example's first item; a number may be null in ours, Open-Meteo's missing value). Members of
 * ours beyond the example must be listed in `extra` (paths such as "hourly_units.time").
 */
function expectShape(ours: Json, example: Json, extra: readonly string[], path = ""): void {
  const t = typeOf(example);
  if (t === "number" && ours === null) return;
  expect(typeOf(ours), `${path || "body"}: type`).toBe(t);
  if (t === "array") {
    const [first] = example as Json[];
    if (first !== undefined) for (const [i, item] of (ours as Json[]).entries()) expectShape(item, first, extra, `${path}[${i}]`);
  } else if (t === "object") {
    const o = ours as Obj;
    const e = example as Obj;
    for (const k of Object.keys(e)) {
      const p = path ? `${path}.${k}` : k;
      if (extra.includes(`-${p}`)) {
        expect(o[k], `${p}: left out (documented)`).toBeUndefined();
        continue;
      }
      expect(Object.keys(o), `${p} present`).toContain(k);
      expectShape(o[k]!, e[k]!, extra, p);
    }
    for (const k of Object.keys(o)) {
      const p = path ? `${path}.${k}` : k;
      if (!(k in e)) expect(extra, `${p}: a member the example does not have`).toContain(p);
    }
  }
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ dataDir: await ensureDefaultData(["elevation", "admin", "places", "forecast"]) });
}, 600_000);
afterAll(async () => server?.close());

async function get(path: string): Promise<{ status: number; body: Obj }> {
  const r = await server.get(path);
  return { status: r.status, body: (await r.json()) as Obj };
}

describe("Open-Meteo's documented examples", () => {
  it("forecast object: the members and their types (JsonWriter.swift also writes hourly_units.time)", async () => {
    const { status, body } = await get("/v1/forecast?latitude=52.52&longitude=13.41&hourly=temperature_2m&timezone=Europe/Berlin");
    expect(status).toBe(200);
    expectShape(body, FORECAST_OBJECT, ["hourly_units.time"]);
    expect((body.hourly_units as Obj).time).toBe("iso8601");
    expect(body.timezone).toBe("Europe/Berlin");
    expect((body.hourly as Obj).time as string[]).toHaveLength(7 * 24);
  });

  it("several points: a list of forecast objects, each of the documented shape (Open-Meteo's docs: \"the JSON output changes to a list of structures\")", async () => {
    const r = await server.get("/v1/forecast?latitude=52.52,48.85&longitude=13.41,2.35&hourly=temperature_2m&timezone=Europe/Berlin,Europe/Paris");
    expect(r.status).toBe(200);
    const list = (await r.json()) as Json[];
    expect(list).toHaveLength(2);
    for (const item of list) expectShape(item, FORECAST_OBJECT, ["hourly_units.time"]);
    expect(list.map((o) => (o as Obj).timezone)).toEqual(["Europe/Berlin", "Europe/Paris"]);
  });

  it("forecast error: the same members and, for the same mistake, the same reason", async () => {
    const { status, body } = await get("/v1/forecast?latitude=52.52&longitude=13.41&hourly=tempeture_2m");
    expect(status).toBe(400);
    expectShape(body, FORECAST_ERROR, []);
    expect(body.reason).toBe((FORECAST_ERROR.reason as string).replace(/\s+/g, " "));
  });

  it("elevation object: the same members; Berlin within 5 m of the documented value (their DEM is GLO-90, ours SRTM)", async () => {
    const { status, body } = await get("/v1/elevation?latitude=52.52&longitude=13.41");
    expect(status).toBe(200);
    expectShape(body, ELEVATION_OBJECT, []);
    expect(Math.abs(((body.elevation as number[])[0] ?? NaN) - 38)).toBeLessThanOrEqual(5);
    const ours = (await get("/elevation/point/2/json?lat=52.52&lon=13.41")).body;
    expect((body.elevation as number[])[0]).toBe(((ours.content as Obj).elevation as Obj).value);
  });

  it("elevation error: the same members and reason", async () => {
    const { status, body } = await get("/v1/elevation?latitude=522.52&longitude=13.41");
    expect(status).toBe(400);
    expectShape(body, ELEVATION_ERROR, []);
    expect(body.reason).toBe(ELEVATION_ERROR.reason);
  });

  it("geocoding object: the members we have, with GeoNames' and CLDR's values; admin2-4 and postcodes left out (we have none)", async () => {
    const { status, body } = await get("/v1/search?name=Berlin&count=1&language=de");
    expect(status).toBe(200);
    expectShape(body, GEOCODING_OBJECT, ["generationtime_ms", ...["admin2_id", "admin3_id", "admin4_id", "postcodes", "admin2", "admin3", "admin4"].map((k) => `-results[0].${k}`)]);
    const ours = (body.results as Obj[])[0]!;
    const doc = (GEOCODING_OBJECT.results as Obj[])[0]!;
    for (const k of ["id", "name", "latitude", "longitude", "feature_code", "country_code", "admin1_id", "timezone", "population", "country_id", "country"]) expect(ours[k], k).toEqual(doc[k]);
  });

  it("geocoding error: the same members and reason", async () => {
    for (const count of ["0", "101"]) {
      const { status, body } = await get(`/v1/search?name=Berlin&count=${count}`);
      expect(status).toBe(400);
      expectShape(body, GEOCODING_ERROR, []);
      expect(body.reason).toBe(GEOCODING_ERROR.reason);
    }
  });
});

describe("Photon's documented example", () => {
  it("a FeatureCollection of the same members (Photon's GeoJsonFormatter also writes the top type and the object type); no OSM ids (we have none)", async () => {
    const { status, body } = await get("/api?q=berlin&limit=1");
    expect(status).toBe(200);
    expectShape(body, PHOTON_OBJECT, ["type", "features[0].properties.type", "-features[0].properties.osm_type", "-features[0].properties.osm_id"]);
    expect(body.type).toBe("FeatureCollection");
    const ours = (body.features as Obj[])[0]!;
    const doc = (PHOTON_OBJECT.features as Obj[])[0]!;
    for (const k of ["name", "country", "countrycode", "osm_key", "osm_value"]) expect((ours.properties as Obj)[k], k).toBe((doc.properties as Obj)[k]);
    // GeoNames' Berlin and OSM's node 240109189 lie within 0.05° of each other.
    const [lon, lat] = (ours.geometry as Obj).coordinates as number[];
    const [docLon, docLat] = (doc.geometry as Obj).coordinates as number[];
    expect(Math.abs(lon! - docLon!)).toBeLessThan(0.05);
    expect(Math.abs(lat! - docLat!)).toBeLessThan(0.05);
  });
});
