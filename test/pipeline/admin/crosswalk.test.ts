/**
 * The crosswalk on real rows: Natural Earth's properties of three real features and five real
 * GeoNames rows. Expected codes are GeoNames facts (Paris and Boulogne-Billancourt are in admin-1
 * 11, Île-de-France; Cayenne and Kourou are in French Guiana, GF; Kyrenia is in CY).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildCrosswalk, zoneCountries, type CrosswalkPlace } from "../../../pipeline/admin/crosswalk.ts";
import type { AdminSourceFeature } from "../../../pipeline/admin/naturalearth.ts";
import { parseGeonameLine, type GeonameRecord } from "../../../pipeline/places/geoname-row.ts";

const rows = readFileSync(path.join(import.meta.dirname, "..", "..", "fixtures", "admin", "cities500-crosswalk-rows.txt"), "utf8")
  .split("\n")
  .filter((l) => l !== "")
  .map((l) => parseGeonameLine(l) as GeonameRecord);
const places: CrosswalkPlace[] = rows.map((r) => ({ lat: r.lat, lon: r.lon, countryCode: r.countryCode, admin1: r.admin1, timezone: r.timezone }));

// Properties as in Natural Earth 10m admin-1 (adm1_code FRA-5333, FRA-2000, CYN+00?).
const feature = (isoA2: string, adm0A3: string, adm1Code: string, gnA1Code: string, name: string): AdminSourceFeature => ({ isoA2, adm0A3, adm1Code, gnA1Code, name, rings: [] });
const features = [
  feature("FR", "FRA", "FRA-5333", "FR.75", "Paris"),
  feature("FR", "FRA", "FRA-2000", "FR.973", "Guyane française"),
  feature("-1", "CYN", "CYN+00?", "-1", "Northern Cyprus"),
];
// Where each place falls (the real polygons contain them; the voting is what is tested here).
const featureOf = new Map<string, number>([["Paris", 0], ["Boulogne-Billancourt", 0], ["Cayenne", 1], ["Kourou", 1], ["Kyrenia", 2]]);
const locate = (lat: number, lon: number): number | undefined => featureOf.get(rows.find((r) => r.lat === lat && r.lon === lon)!.name);

describe("admin-1 crosswalk", () => {
  const codes = new Set(["FR.11", "FR.75", "CY.02"]);
  const result = buildCrosswalk(features, places, locate, codes);

  it("takes the GeoNames admin-1 of the places inside, not Natural Earth's lower level", () => {
    expect(result.admin1[0]).toBe("FR.11");
    expect(result.report.disagreementsByCountry.FR).toBe(1);
  });

  it("takes GeoNames' country when no place inside has Natural Earth's", () => {
    expect(result.iso2[1]).toBe("GF");
    expect(result.report.countryChanged).toEqual(["FRA-2000 Guyane française: FR→GF"]);
    expect(result.iso2[2]).toBe("CY");
  });

  it("reports what it could not resolve", () => {
    // Cayenne's and Kourou's admin-1 code "GF" is not in the code list given: no admin-1.
    expect(result.admin1[1]).toBe("");
    expect(result.report.unresolvedAdmin1).toEqual(["FRA-2000 Guyane française (FR/FRA)"]);
    // Kyrenia (GeoNames admin-1 02) is in a listed code.
    expect(result.admin1[2]).toBe("CY.02");
  });

  it("maps zones to the country most of their places are in", () => {
    const zones = zoneCountries(places);
    expect(zones.get("Europe/Paris")).toBe("FR");
    expect(zones.get("America/Cayenne")).toBe("GF");
  });
});
