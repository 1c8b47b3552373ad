/**
 * GET /geocode/reverse/2/json through the real server on the embedded default. Expected values
 * are outside facts: GeoNames records of the places (country, admin-1 code, timezone), IANA
 * offsets, and geo-tz (an independent lookup on the OpenStreetMap-derived timezone polygons) to
 * tell which side of the Baarle border a point is on.
 */
import { find } from "geo-tz/all";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDefaultData } from "../../helpers/default-data.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";

let server: TestServer;
// A fixed instant (southern summer, northern winter), so offsets and polar markers do not depend
// on the day the tests run.
const JANUARY = new Date("2026-01-15T12:00:00Z");

beforeAll(async () => {
  server = await startTestServer({ dataDir: await ensureDefaultData(["places", "admin"]), now: () => JANUARY });
}, 900_000);
afterAll(async () => {
  await server?.close();
});

interface Administrative {
  continent?: { code: string; name: Record<string, string> };
  country?: { ISO2: string; ISO3: string; name: Record<string, string>; capital: string; count: number };
  administrative1?: { code: string; id_admin: number; name: string; count: number };
  timezone: { timezone: string; GMT: number; UNIXTimestamp: number; isDST: number; timeFormatted: string; sunrise: string; sunset: string };
}

async function reverse(lat: number | string, lon: number | string): Promise<{ status: number; body: { status: string; code: number; content: { administrative: Administrative }; message?: string } }> {
  const res = await server.get(`/geocode/reverse/2/json?lat=${lat}&lon=${lon}`);
  return { status: res.status, body: (await res.json()) as never };
}

async function admin(lat: number, lon: number): Promise<Administrative> {
  const { status, body } = await reverse(lat, lon);
  expect(status).toBe(200);
  expect(body.status).toBe("OK");
  return body.content.administrative;
}

describe("GET /geocode/reverse/2/json", () => {
  it("answers Baarle-Hertog's main enclave as Belgium, Flanders, although Natural Earth draws it Dutch", async () => {
    // geo-tz, on OpenStreetMap borders, puts this point in the Belgian enclave.
    expect(find(51.4416, 4.9295)).toEqual(["Europe/Brussels"]);
    const a = await admin(51.4416, 4.9295);
    expect(a.country?.ISO2).toBe("BE");
    expect(a.country?.ISO3).toBe("BEL");
    // GeoNames: Baarle-Hertog (2802816) is in admin-1 VLG, Flanders (id 3337388).
    expect(a.administrative1?.code).toBe("BE.VLG");
    expect(a.administrative1?.id_admin).toBe(3337388);
    expect(a.continent?.code).toBe("EU");
    expect(a.timezone.timezone).toBe("Europe/Brussels");
  });

  it("answers Baarle-Nassau (GeoNames 2759554) as the Netherlands, North Brabant, Europe/Amsterdam", async () => {
    const a = await admin(51.4475, 4.92917);
    expect(a.country?.ISO2).toBe("NL");
    expect(a.administrative1?.code).toBe("NL.06");
    expect(a.timezone.timezone).toBe("Europe/Amsterdam");
  });

  it("answers Vaduz with Europe/Vaduz, not Europe/Zurich", async () => {
    const a = await admin(47.14151, 9.52154);
    expect(a.country?.ISO2).toBe("LI");
    expect(a.timezone.timezone).toBe("Europe/Vaduz");
  });

  it("answers both sides of the Central/Mountain line in North Dakota", async () => {
    // GeoNames: Bismarck 5688025 America/Chicago, Dickinson 5688789 America/Denver, both US.ND.
    const bismarck = await admin(46.80833, -100.78374);
    const dickinson = await admin(46.87918, -102.78962);
    expect(bismarck.timezone.timezone).toBe("America/Chicago");
    expect(dickinson.timezone.timezone).toBe("America/Denver");
    expect(bismarck.administrative1?.code).toBe("US.ND");
    expect(dickinson.administrative1?.code).toBe("US.ND");
    // Mountain is one hour behind Central whatever the date.
    expect(bismarck.timezone.GMT - dickinson.timezone.GMT).toBe(60);
  });

  it("answers Kaliningrad as Russia with Europe/Kaliningrad (UTC+2, no DST)", async () => {
    const a = await admin(54.70639, 20.51102);
    expect(a.country?.ISO2).toBe("RU");
    expect(a.administrative1?.code).toBe("RU.23");
    expect(a.timezone.timezone).toBe("Europe/Kaliningrad");
    expect(a.timezone.GMT).toBe(120);
    expect(a.timezone.isDST).toBe(0);
  });

  it("answers Honolulu as Hawaii, UTC-10 without DST", async () => {
    const a = await admin(21.30694, -157.85833);
    expect(a.country?.ISO2).toBe("US");
    expect(a.administrative1?.code).toBe("US.HI");
    expect(a.continent?.code).toBe("NA");
    expect(a.timezone).toMatchObject({ timezone: "Pacific/Honolulu", GMT: -600, isDST: 0 });
  });

  it("answers the Chatham Islands with Pacific/Chatham (+12:45, +13:45 in summer)", async () => {
    // GeoNames: Waitangi 4032804, NZ admin-1 10 (Chatham Islands).
    const a = await admin(-43.95353, -176.55973);
    expect(a.country?.ISO2).toBe("NZ");
    expect(a.administrative1?.code).toBe("NZ.10");
    expect(a.timezone).toMatchObject({ timezone: "Pacific/Chatham", GMT: 825, isDST: 1 });
  });

  it("answers Lord Howe Island with its half-hour DST (+10:30, +11:00 in summer)", async () => {
    const a = await admin(-31.5553, 159.0821);
    expect(a.country?.ISO2).toBe("AU");
    expect(a.timezone).toMatchObject({ timezone: "Australia/Lord_Howe", GMT: 660, isDST: 1 });
  });

  it("answers Longyearbyen's timezone Arctic/Longyearbyen", async () => {
    const a = await admin(78.22334, 15.64689);
    expect(a.timezone).toMatchObject({ timezone: "Arctic/Longyearbyen", GMT: 60, isDST: 0, sunrise: "polar-night", sunset: "polar-night" });
  });

  it("answers the open Pacific with the timezone only: Etc/GMT+9 (UTC-9)", async () => {
    const a = await admin(0, -140);
    expect(Object.keys(a)).toEqual(["timezone"]);
    expect(a.timezone).toMatchObject({ timezone: "Etc/GMT+9", GMT: -540, isDST: 0 });
  });

  it("gives a point 50 km off Oahu the timezone only, as geo-tz does", async () => {
    const a = await admin(20.85, -157.86);
    expect(Object.keys(a)).toEqual(["timezone"]);
    expect(a.timezone.timezone).toBe(find(20.85, -157.86)[0]);
  });

  it("answers the poles and the antimeridian", async () => {
    // The North Pole, where every band meets (geo-tz lists 25 zones): the band of its longitude,
    // geo-tz's single zone just off the pole on the same meridian; polar night in January.
    expect((await admin(90, 0)).timezone).toMatchObject({ timezone: find(89.9, 0)[0], GMT: 0, sunrise: "polar-night", sunset: "polar-night" });
    const south = await admin(-89.9, 0);
    expect(south.country?.ISO2).toBe("AQ");
    expect((await admin(0, 180)).timezone.timezone).toBe("Etc/GMT+12");
    expect((await admin(0, -180)).timezone.timezone).toBe("Etc/GMT+12");
  });

  it("refuses a latitude out of range or a malformed longitude with a 400 naming it", async () => {
    const a = await reverse(91, 0);
    expect(a.status).toBe(400);
    expect(a.body.message).toContain("lat");
    const b = await reverse(0, "east");
    expect(b.status).toBe(400);
    expect(b.body.message).toContain("lon");
  });
});
