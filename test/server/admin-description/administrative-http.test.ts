import { afterAll, beforeAll, describe, expect, it } from "vitest";
import path from "node:path";
import { EMBEDDED_DIR } from "../../../datasets/common/paths.ts";
import { openSource, readLines } from "../../../pipeline/common/source.ts";
import { ensureDefaultData } from "../../helpers/default-data.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";

// The administrative object of real places through the real server (GET /geocode/id), checked
// against GeoNames facts (countryInfo.txt, admin1CodesASCII.txt, cities500.txt and cities15000.txt rows) and CLDR
// facts known outside the code (Germany is ドイツ in Japanese).

interface Administrative {
  continent?: { code: string; name: Record<string, string> };
  country?: { ISO2: string; ISO3: string; name: Record<string, string>; capital: string; count: number };
  administrative1?: { code: string; id_admin: number; name: string; count: number };
  timezone: { timezone: string; GMT: number; UNIXTimestamp: number; isDST: number; timeFormatted: string; sunrise: string; sunset: string };
}

let server: TestServer;
// The instant the server answers for: fixed, so local times, DST and polar markers do not depend
// on the day the tests run. 15 December 2026, 12:00 UTC unless a test sets another.
const DECEMBER = new Date("2026-12-15T12:00:00Z");
let instant = DECEMBER;

beforeAll(async () => {
  server = await startTestServer({ dataDir: await ensureDefaultData(["places"]), now: () => instant });
}, 600_000);
afterAll(async () => {
  await server?.close();
});

async function administrativeOf(id: string): Promise<Administrative> {
  const res = await server.get(`/geocode/id/2/json?id=${encodeURIComponent(id)}`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { content: { administrative: Administrative } };
  return body.content.administrative;
}

/**
 * Places of the embedded gazetteer per country and per country.admin1, read from the bytes of its
 * dumps: cities500, then cities15000 whose rows replace those with the same GeoNames id.
 */
async function gazetteerCounts(): Promise<Map<string, number>> {
  const rows = new Map<string, string[]>();
  for (const dump of ["cities500.zip", "cities15000.zip"]) {
    const { stream } = await openSource(path.join(EMBEDDED_DIR, "geonames", dump));
    for await (const { line } of readLines(stream)) {
      const cols = line.split("\t");
      if (cols.length < 19) continue;
      rows.set(cols[0]!, cols);
    }
  }
  const counts = new Map<string, number>();
  for (const cols of rows.values()) for (const key of [cols[8]!, `${cols[8]}.${cols[10]}`]) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

const ISO_LOCAL = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/;

describe("administrative description through GET /geocode/id", () => {
  it("Berlin (gn:2950159): continent EU, Germany/DEU with capital Berlin, admin1 DE.16 id 2950157", async () => {
    const admin = await administrativeOf("gn:2950159");
    expect(admin.continent?.code).toBe("EU");
    expect(admin.continent?.name["DE"]).toBe("Europa");
    expect(admin.country).toMatchObject({ ISO2: "DE", ISO3: "DEU", capital: "Berlin" });
    expect(admin.country?.name["JA"]).toBe("ドイツ");
    expect(admin.country?.name["BR"]).toBe("Alemanha");
    expect(admin.administrative1).toMatchObject({ code: "DE.16", id_admin: 2950157, name: "State of Berlin" });
    // Central European Time in December: UTC+1 (60 minutes), no DST.
    expect(admin.timezone).toMatchObject({ timezone: "Europe/Berlin", GMT: 60, isDST: 0, UNIXTimestamp: DECEMBER.getTime() / 1000, timeFormatted: "2026-12-15T13:00:00+01:00" });
    expect(admin.timezone.sunrise).toMatch(ISO_LOCAL);
    expect(admin.timezone.sunset).toMatch(ISO_LOCAL);
    expect(admin.timezone.sunrise.startsWith("2026-12-15T0")).toBe(true);
  });

  it("count is the number of gazetteer places (cities500 merged with cities15000) in the country and in the admin-1 area", async () => {
    const counts = await gazetteerCounts();
    const berlin = await administrativeOf("gn:2950159");
    expect(berlin.country?.count).toBe(counts.get("DE"));
    expect(berlin.administrative1?.count).toBe(counts.get("DE.16"));
    const kolkata = await administrativeOf("gn:1275004");
    expect(kolkata.country?.count).toBe(counts.get("IN"));
    expect(kolkata.administrative1?.count).toBe(counts.get("IN.28"));
  });

  it("Kolkata (gn:1275004): India, West Bengal IN.28 (id 1252881), +05:30 as 330 minutes, no DST", async () => {
    const admin = await administrativeOf("gn:1275004");
    expect(admin.continent?.code).toBe("AS");
    expect(admin.country).toMatchObject({ ISO2: "IN", ISO3: "IND", capital: "New Delhi" });
    expect(admin.administrative1).toMatchObject({ code: "IN.28", id_admin: 1252881, name: "West Bengal" });
    expect(admin.timezone).toMatchObject({ timezone: "Asia/Kolkata", GMT: 330, isDST: 0 });
    expect(admin.timezone.timeFormatted.endsWith("+05:30")).toBe(true);
  });

  it("Waitangi, Chatham Islands (gn:4032804): Pacific/Chatham, +13:45 DST (825) in December, +12:45 (765) in June", async () => {
    const admin = await administrativeOf("gn:4032804");
    expect(admin.continent?.code).toBe("OC");
    expect(admin.country?.ISO2).toBe("NZ");
    expect(admin.timezone).toMatchObject({ timezone: "Pacific/Chatham", GMT: 825, isDST: 1 });
    instant = new Date("2026-06-15T12:00:00Z");
    try {
      expect((await administrativeOf("gn:4032804")).timezone).toMatchObject({ GMT: 765, isDST: 0 });
    } finally {
      instant = DECEMBER;
    }
  });

  it("Longyearbyen (gn:2729907): polar markers in the dark and light seasons, local times otherwise", async () => {
    const admin = await administrativeOf("gn:2729907");
    expect(admin.country?.ISO2).toBe("SJ");
    expect(admin.timezone.timezone).toBe("Arctic/Longyearbyen");
    // Polar night there lasts from about 26 October to 15 February, midnight sun from about
    // 20 April to 23 August (Norwegian Polar Institute); March has ordinary sunrises.
    expect(admin.timezone).toMatchObject({ sunrise: "polar-night", sunset: "polar-night", GMT: 60 });
    try {
      instant = new Date("2026-06-21T12:00:00Z");
      expect((await administrativeOf("gn:2729907")).timezone).toMatchObject({ sunrise: "polar-day", sunset: "polar-day", GMT: 120, isDST: 1 });
      instant = new Date("2026-03-20T12:00:00Z");
      const march = (await administrativeOf("gn:2729907")).timezone;
      expect(march.sunrise).toMatch(ISO_LOCAL);
      expect(march.sunset).toMatch(ISO_LOCAL);
    } finally {
      instant = DECEMBER;
    }
  });
});
