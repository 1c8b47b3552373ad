import { describe, expect, it } from "vitest";
import { buildAdministrative } from "../../../server/admin-description/build-administrative.ts";
import { loadCldrNames } from "../../../pipeline/places/cldr-names.ts";
import type { Admin1Info, ContinentInfo, CountryInfo } from "../../../datasets/places/admin-types.ts";

// Germany and Berlin as GeoNames describes them (countryInfo.txt: DE, DEU, capital Berlin,
// geonameid 2921044, continent EU; admin1CodesASCII.txt: DE.16 Berlin, geonameid 2950157).
const cldr = loadCldrNames();
const europe: ContinentInfo = { code: "EU", names: cldr.continents.get("EU")! };
const germany: CountryInfo = { iso2: "DE", iso3: "DEU", geonameId: 2921044, names: cldr.countries.get("DE")!, capital: "Berlin", continentCode: "EU", placeCount: 12345 };
const berlin: Admin1Info = { code: "DE.16", geonameId: 2950157, name: "Berlin", placeCount: 17 };
const instant = new Date("2026-11-22T13:05:00Z");

describe("buildAdministrative", () => {
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
    expect(admin.country!.count).toBe(12345);
    expect(admin.administrative1).toEqual({ code: "DE.16", id_admin: 2950157, name: "Berlin", count: 17 });
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
