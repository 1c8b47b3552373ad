import path from "node:path";
import { describe, expect, it } from "vitest";
import { EMBEDDED_DIR } from "../../../datasets/common/paths.ts";
import { openSource, readLines } from "../../../pipeline/common/source.ts";
import { buildAdministrative } from "../../../server/admin-description/build-administrative.ts";
import { loadCldrNames } from "../../../pipeline/places/cldr-names.ts";
import type { Admin1Info, ContinentInfo, CountryInfo } from "../../../datasets/places/admin-types.ts";

// Germany and Berlin from the GeoNames rows themselves (datasets/embedded/geonames: the DE line of
// countryInfo.txt and the DE.16 line of admin1CodesASCII.txt, bytes as published), read by their
// documented columns; the counts are the places of the embedded cities15000 dump in DE and DE.16.
const COUNTRY_INFO_DE = "DE\tDEU\t276\tGM\tGermany\tBerlin\t357021\t82927922\tEU\t.de\tEUR\tEuro\t49\t#####\t^(\\d{5})$\tde\t2921044\tCH,PL,NL,DK,BE,CZ,LU,FR,AT\t";
const ADMIN1_DE16 = "DE.16\tState of Berlin\tState of Berlin\t2950157";
const country = COUNTRY_INFO_DE.split("\t"); // ISO, ISO3, ISO-Numeric, fips, Country, Capital, ..., Continent (8), ..., geonameid (16)
const admin1 = ADMIN1_DE16.split("\t"); // code, name, asciiname, geonameid

async function cities15000Counts(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const { stream } = await openSource(path.join(EMBEDDED_DIR, "geonames", "cities15000.zip"));
  for await (const { line } of readLines(stream)) {
    const cols = line.split("\t");
    if (cols.length < 19) continue;
    for (const key of [cols[8]!, `${cols[8]}.${cols[10]}`]) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

const counts = await cities15000Counts();
const cldr = loadCldrNames();
const europe: ContinentInfo = { code: country[8]!, names: cldr.continents.get(country[8]!)! };
const germany: CountryInfo = { iso2: country[0]!, iso3: country[1]!, geonameId: Number(country[16]), names: cldr.countries.get(country[0]!)!, capital: country[5]!, continentCode: country[8]!, placeCount: counts.get("DE")! };
const berlin: Admin1Info = { code: admin1[0]!, geonameId: Number(admin1[3]), name: admin1[1]!, placeCount: counts.get("DE.16")! };
const instant = new Date("2026-11-22T13:05:00Z");

describe("buildAdministrative", () => {
  it("uses rows that are lines of the embedded GeoNames files", async () => {
    const lines = async (file: string): Promise<string[]> => {
      const out: string[] = [];
      const { stream } = await openSource(path.join(EMBEDDED_DIR, "geonames", file));
      for await (const { line } of readLines(stream)) out.push(line);
      return out;
    };
    expect(await lines("countryInfo.txt.gz")).toContain(COUNTRY_INFO_DE);
    expect(await lines("admin1CodesASCII.txt.gz")).toContain(ADMIN1_DE16);
  });

  it("describes Berlin with the spec's wire names and order", () => {
    const admin = buildAdministrative({ continent: europe, country: germany, admin1: berlin, timezone: "Europe/Berlin", lat: 52.52, lon: 13.405 }, instant);
    expect(Object.keys(admin)).toEqual(["continent", "country", "administrative1", "timezone"]);
    expect(admin.continent).toEqual({ name: europe.names, code: "EU" });
    expect(admin.continent!.name.DE).toBe("Europa");
    expect(Object.keys(admin.country!)).toEqual(["ISO2", "ISO3", "name", "capital", "count"]);
    expect(admin.country!.ISO2).toBe("DE");
    expect(admin.country!.ISO3).toBe("DEU");
    expect(admin.country!.name.JA).toBe("ドイツ");
    expect(admin.country!.capital).toBe("Berlin");
    expect(admin.country!.count).toBe(counts.get("DE"));
    expect(admin.country!.count).toBeGreaterThan(100);
    expect(admin.administrative1).toEqual({ code: "DE.16", id_admin: 2950157, name: "State of Berlin", count: counts.get("DE.16") });
    expect(Object.keys(admin.timezone)).toEqual(["timezone", "GMT", "UNIXTimestamp", "isDST", "timeFormatted", "sunrise", "sunset"]);
    expect(admin.timezone.timezone).toBe("Europe/Berlin");
    expect(admin.timezone.timeFormatted).toBe("2026-11-22T14:05:00+01:00");
  });

  it("at sea gives only the timezone", () => {
    const admin = buildAdministrative({ timezone: "Etc/GMT+10", lat: -10, lon: -150 }, instant);
    expect(Object.keys(admin)).toEqual(["timezone"]);
    expect(admin.timezone.GMT).toBe(-600);
    expect(admin.timezone.timeFormatted).toBe("2026-11-22T03:05:00-10:00");
  });

  it("leaves out administrative1 when there is none (a country without admin1 match)", () => {
    const admin = buildAdministrative({ continent: europe, country: germany, timezone: "Europe/Berlin", lat: 54.5, lon: 13.4 }, instant);
    expect(Object.keys(admin)).toEqual(["continent", "country", "timezone"]);
  });

  it("serializes to JSON with integers where the spec says integer", () => {
    const admin = buildAdministrative({ continent: europe, country: germany, admin1: berlin, timezone: "Asia/Kolkata", lat: 22.57, lon: 88.36 }, instant);
    const json = JSON.parse(JSON.stringify(admin)) as { timezone: Record<string, unknown> };
    expect(json.timezone["GMT"]).toBe(330);
    expect(json.timezone["isDST"]).toBe(0);
    expect(Number.isInteger(json.timezone["UNIXTimestamp"])).toBe(true);
  });
});
