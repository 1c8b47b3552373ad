/**
 * Every GeoNames place of cities15000 (the committed embedded copy, datasets/embedded/geonames, so
 * the test runs everywhere): every one gets a country (coastal places that Natural Earth's
 * generalized coastline leaves at sea take the nearest area within the territorial sea, 12 nautical
 * miles), the place's own for at least 99.5 % of them, the admin-1 code for at least 97 %.
 * Mismatches are printed per country.
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { AdminIndex } from "../../../datasets/admin/admin-index.ts";
import { openAdminFile } from "../../../datasets/admin/admin-file.ts";
import { DATASETS } from "../../../datasets/catalog.ts";
import { EMBEDDED_DIR } from "../../../datasets/common/paths.ts";
import { openSource, readLines } from "../../../pipeline/common/source.ts";
import { parseGeonameLine } from "../../../pipeline/places/geoname-row.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";

interface Place {
  id: number;
  name: string;
  lat: number;
  lon: number;
  cc: string;
  admin1: string;
}

let index: AdminIndex;
const places: Place[] = [];
let source = "";

beforeAll(async () => {
  const dataDir = await defaultDatasetDir("admin");
  const file = path.join(dataDir, DATASETS.admin.file);
  index = openAdminFile(file).index;
  source = path.join(EMBEDDED_DIR, "geonames", "cities15000.zip");
  const { stream } = await openSource(source);
  for await (const { line } of readLines(stream)) {
    const r = parseGeonameLine(line);
    if (r === null || typeof r === "string") continue;
    places.push({ id: r.geonameId, name: r.name, lat: r.lat, lon: r.lon, cc: r.countryCode, admin1: r.admin1 });
  }
}, 900_000);

describe(`reverse geocoding of GeoNames places`, () => {
  it("finds each place's own country for ≥ 99.5 % and admin-1 for ≥ 97 %", () => {
    expect(places.length).toBeGreaterThan(20_000);
    let countryOk = 0;
    let admin1Ok = 0;
    const countryMiss = new Map<string, string[]>();
    const admin1Miss = new Map<string, number>();
    for (const p of places) {
      const a = index.lookup(p.lat, p.lon);
      if (a.iso2 === p.cc) countryOk++;
      else {
        const list = countryMiss.get(p.cc) ?? [];
        list.push(`${p.name}→${a.iso2 ?? "sea"}`);
        countryMiss.set(p.cc, list);
      }
      if (a.admin1 === `${p.cc}.${p.admin1}`) admin1Ok++;
      else admin1Miss.set(p.cc, (admin1Miss.get(p.cc) ?? 0) + 1);
    }
    const countryRate = countryOk / places.length;
    const admin1Rate = admin1Ok / places.length;
    const byCount = <T>(m: Map<string, T>, size: (v: T) => number) => [...m].sort((a, b) => size(b[1]) - size(a[1]));
    console.log(
      `${path.basename(source)}: ${places.length} places, country ${(100 * countryRate).toFixed(2)} %, admin-1 ${(100 * admin1Rate).toFixed(2)} %\n` +
        `country mismatches per country: ${byCount(countryMiss, (v) => v.length).map(([cc, l]) => `${cc} ${l.length} (${l.slice(0, 3).join(", ")})`).join("; ")}\n` +
        `admin-1 mismatches per country: ${byCount(admin1Miss, (v) => v).map(([cc, n]) => `${cc} ${n}`).join(", ")}`,
    );
    expect(countryRate).toBeGreaterThanOrEqual(0.995);
    expect(admin1Rate).toBeGreaterThanOrEqual(0.97);
  });

  it("gives every place a country, none at sea", () => {
    const atSea = places.filter((p) => index.lookup(p.lat, p.lon).iso2 === undefined).map((p) => `${p.name} (${p.cc})`);
    expect(atSea).toEqual([]);
  });

  it("gives Cairns, Dorval and The Palm Jumeirah (more than 2 km outside Natural Earth's coastline) their GeoNames country and admin-1", () => {
    // GeoNames ids 2172797 Cairns (AU.04), 5941925 Dorval (CA.10), 6691113 The Palm Jumeirah (AE.03);
    // 2729907 Longyearbyen (SJ.21): Svalbard's places all lie in fjords beyond Natural Earth's
    // coastline, and only counting them for their nearest area makes Natural Earth's Svalbard (NO) SJ.
    for (const id of [2172797, 5941925, 6691113, 2729907]) {
      const p = places.find((q) => q.id === id)!;
      const a = index.lookup(p.lat, p.lon);
      expect({ id, iso2: a.iso2, admin1: a.admin1 }).toEqual({ id, iso2: p.cc, admin1: `${p.cc}.${p.admin1}` });
    }
  });
});
