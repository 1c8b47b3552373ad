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

beforeAll(async () => {
  server = await startTestServer({ dataDir: await ensureDefaultData(["places"]) });
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
    expect(admin.timezone.timezone).toBe("Europe/Berlin");
    expect([60, 120]).toContain(admin.timezone.GMT);
    expect(admin.timezone.isDST).toBe(admin.timezone.GMT === 120 ? 1 : 0);
    expect(admin.timezone.timeFormatted).toMatch(ISO_LOCAL);
    expect(admin.timezone.sunrise).toMatch(ISO_LOCAL);
    expect(admin.timezone.sunset).toMatch(ISO_LOCAL);
    expect(Number.isInteger(admin.timezone.UNIXTimestamp)).toBe(true);
    expect(Math.abs(admin.timezone.UNIXTimestamp - Date.now() / 1000)).toBeLessThan(120);
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

  it("Waitangi, Chatham Islands (gn:4032804): Pacific/Chatham, +12:45 (765) or +13:45 DST (825)", async () => {
    const admin = await administrativeOf("gn:4032804");
    expect(admin.continent?.code).toBe("OC");
    expect(admin.country?.ISO2).toBe("NZ");
    expect(admin.timezone.timezone).toBe("Pacific/Chatham");
    expect([765, 825]).toContain(admin.timezone.GMT);
    expect(admin.timezone.isDST).toBe(admin.timezone.GMT === 825 ? 1 : 0);
  });

  it("Longyearbyen (gn:2729907): polar markers in the dark and light seasons, local times otherwise", async () => {
    const admin = await administrativeOf("gn:2729907");
    expect(admin.country?.ISO2).toBe("SJ");
    expect(admin.timezone.timezone).toBe("Arctic/Longyearbyen");
    // Polar night there lasts from about 26 October to 15 February, midnight sun from about
    // 20 April to 23 August; a margin of weeks keeps the test independent of the run's date.
    const now = new Date();
    const dayOfYear = (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - Date.UTC(now.getUTCFullYear(), 0, 1)) / 86_400_000;
    const expected = dayOfYear >= 320 || dayOfYear <= 25 ? "polar-night" : dayOfYear >= 130 && dayOfYear <= 215 ? "polar-day" : undefined;
    if (expected !== undefined) {
      expect(admin.timezone.sunrise).toBe(expected);
      expect(admin.timezone.sunset).toBe(expected);
    } else {
      for (const value of [admin.timezone.sunrise, admin.timezone.sunset]) expect(value === "polar-day" || value === "polar-night" || ISO_LOCAL.test(value)).toBe(true);
    }
  });
});
