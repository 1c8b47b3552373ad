import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { parseAdmin1Line } from "../../../pipeline/places/admin1-codes.ts";
import { parseCountryInfoLine, type CountryRecord } from "../../../pipeline/places/country-info.ts";
import { parseGeonameLine, type GeonameRecord } from "../../../pipeline/places/geoname-row.ts";

const FIXTURES = path.join(PROJECT_ROOT, "test", "fixtures", "places");
const lines = (name: string): string[] => readFileSync(path.join(FIXTURES, name), "utf8").split("\n");

describe("countryInfo.txt with the upstream comment block", () => {
  const parsed = lines("countryInfo-2019-excerpt.txt").map(parseCountryInfoLine);

  it("skips all 51 comment lines, the #ISO header included, and keeps the 8 data rows", () => {
    expect(parsed.slice(0, 51).every((r) => r === null)).toBe(true);
    const rows = parsed.filter((r): r is CountryRecord => typeof r === "object" && r !== null);
    expect(rows.map((r) => r.iso2)).toEqual(["BR", "DE", "FR", "GB", "JP", "PL", "RU", "US"]);
    expect(parsed.filter((r) => typeof r === "string")).toEqual([]);
  });

  it("reads Germany as GeoNames publishes it", () => {
    const de = parsed.find((r) => typeof r === "object" && r !== null && r.iso2 === "DE") as CountryRecord;
    // GeoNames: DE, DEU, capital Berlin, continent EU, geonameid 2921044.
    expect(de).toMatchObject({ iso3: "DEU", name: "Germany", capital: "Berlin", continent: "EU", geonameId: 2921044 });
  });

  it("names the fault of a damaged row", () => {
    const de = lines("countryInfo-2019-excerpt.txt").find((l) => l.startsWith("DE\t"))!;
    expect(parseCountryInfoLine(de.split("\t").slice(0, 10).join("\t"))).toMatch(/at least 17 tab-separated columns, got 10/);
    expect(parseCountryInfoLine(de.replace("\tEU\t", "\tXX\t"))).toMatch(/continent code .* got "XX"/);
  });
});

describe("admin1CodesASCII.txt", () => {
  it("reads DE.16 as the State of Berlin, GeoNames id 2950157", () => {
    const row = lines("admin1CodesASCII-excerpt.txt").find((l) => l.startsWith("DE.16\t"))!;
    expect(parseAdmin1Line(row)).toEqual({ code: "DE.16", name: "State of Berlin", asciiName: "State of Berlin", geonameId: 2950157 });
  });

  it("refuses a row without its id column", () => {
    expect(parseAdmin1Line("DE.16\tState of Berlin\tState of Berlin")).toMatch(/4 tab-separated columns, got 3/);
  });
});

describe("place dump rows (cities500)", () => {
  it("reads Berlin with its non-Latin alternate names", () => {
    const row = lines("cities500-excerpt.txt").find((l) => l.startsWith("2950159\t"))!;
    const r = parseGeonameLine(row) as GeonameRecord;
    expect(r).toMatchObject({
      geonameId: 2950159, name: "Berlin", featureClass: "P", featureCode: "PPLC", countryCode: "DE", admin1: "16", timezone: "Europe/Berlin",
    });
    expect(r.lat).toBeCloseTo(52.52437, 5);
    expect(r.lon).toBeCloseTo(13.41053, 5);
    expect(r.alternateNames).toContain("Берлин");
    expect(r.alternateNames).toContain("ベルリン");
  });

  it("reports the split and the truncated rows of a damaged file, keeping the good ones", () => {
    const parsed = lines("cities500-malformed.txt").map(parseGeonameLine);
    const good = parsed.filter((r) => typeof r === "object" && r !== null);
    const bad = parsed.map((r, i) => [i + 1, r] as const).filter(([, r]) => typeof r === "string");
    expect(good).toHaveLength(8);
    expect(bad.map(([line]) => line)).toEqual([9, 10, 11]);
    expect(bad[0]![1]).toBe("19 tab-separated columns, got 4");
  });
});
