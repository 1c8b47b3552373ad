/**
 * Natural Earth admin-1 features → GeoNames country and admin-1 codes, from real data: the
 * GeoNames places that fall inside each feature vote for their own country and admin-1 code (the
 * caller's `locate` gives a place off the generalized coast, within the territorial sea, to its
 * nearest feature, as the lookup does).
 *
 * Natural Earth's `gn_a1_code` is right for most countries but names a lower level in some (FR,
 * GB, IT, ES, UG, PH, LV, VN...: Paris is FR.75 there, FR.11 Île-de-France in GeoNames), and its
 * `iso_a2` is "-1" for a few special areas (Northern Cyprus, Somaliland, Baikonur, the UK bases
 * on Cyprus...). Rules, in order:
 *  - country: `iso_a2` when it is a code and some place inside is of that country (or there are no
 *    places inside); otherwise the country most of the feature's places have (GeoNames is the
 *    gazetteer we serve: French Guiana is GF there, Réunion RE, Bonaire BQ, where Natural Earth
 *    says FR or NL); otherwise the allowlist below;
 *  - admin-1: the code most of the feature's places of that country have; a feature without
 *    places keeps `gn_a1_code` when GeoNames has that code; otherwise it stays unresolved.
 *    When no code reaches SPLIT_SHARE of the votes (Natural Earth's unit is coarser than
 *    GeoNames' admin-1, or predates a reform), the feature keeps its places: a point inside it
 *    takes the admin-1 of the nearest of them (the country still comes from the polygon).
 */
import type { AdminSourceFeature } from "./naturalearth.ts";

export interface CrosswalkPlace {
  lat: number;
  lon: number;
  countryCode: string;
  admin1: string;
  /** The place's IANA timezone ("" when none). */
  timezone: string;
}

/** The country of each timezone: the one most GeoNames places of that zone are in. */
export function zoneCountries(places: Iterable<CrosswalkPlace>): Map<string, string> {
  const counts = new Map<number, Map<string, number>>();
  const zones: string[] = [];
  const zoneIds = new Map<string, number>();
  for (const p of places) {
    if (p.timezone === "") continue;
    let id = zoneIds.get(p.timezone);
    if (id === undefined) {
      id = zones.length;
      zones.push(p.timezone);
      zoneIds.set(p.timezone, id);
    }
    bump(counts, id, p.countryCode);
  }
  const out = new Map<string, string>();
  zones.forEach((z, id) => {
    const cc = majority(counts.get(id));
    if (cc !== undefined) out.set(z, cc);
  });
  return out;
}

/**
 * Features without places whose Natural Earth `iso_a2` is "-1": the ISO 3166-1 code of the
 * territory (ISO 3166-1 and GeoNames countryInfo list CC, CX; the Coral Sea Islands are an
 * Australian territory; Guantánamo Bay is in Cuba). Kashmir, the Spratly Islands and Clipperton
 * stay without a country (disputed, or no GeoNames country).
 */
export const COUNTRY_ALLOWLIST: Readonly<Record<string, string>> = {
  "IOA-1928": "CC",
  "IOA-2652": "CX",
  "CSI+00?": "AU",
  "USG+00?": "CU",
};

/** Share of the leading admin-1 code below which an area is split by nearest place. */
export const SPLIT_SHARE = 0.8;

/** A GeoNames place used to split an area: its position and admin-1 code ("CC.code"). */
export interface RefinementPlace {
  lat: number;
  lon: number;
  countryCode: string;
  code: string;
}

export interface CrosswalkReport {
  features: number;
  /** Features split by nearest place (several GeoNames admin-1 areas inside). */
  splitAreas: number;
  /** Features whose admin-1 came from their places. */
  byPlaces: number;
  /** Features without places whose Natural Earth code GeoNames knows. */
  byNaturalEarthCode: number;
  /** Features whose country came from their places instead of Natural Earth's code. */
  countryByPlaces: number;
  /** Features whose places' country differs from Natural Earth's iso_a2: "adm1_code name: NE→GeoNames". */
  countryChanged: string[];
  /** Features where the places disagree with Natural Earth's gn_a1_code, per country. */
  disagreementsByCountry: Record<string, number>;
  /** Features left without a country or admin-1 code: "adm1_code name (iso)". */
  unresolvedCountry: string[];
  unresolvedAdmin1: string[];
  placesUsed: number;
  /** Places that `locate` put in no feature (beyond the territorial sea of every area). */
  placesAtSea: number;
}

function majority(counts: Map<string, number> | undefined): string | undefined {
  if (!counts) return undefined;
  let best: string | undefined;
  let bestN = 0;
  // Ties go to the smaller code, so the result does not depend on the order of the places.
  for (const [k, n] of counts) if (n > bestN || (n === bestN && best !== undefined && k < best)) [best, bestN] = [k, n];
  return best;
}

function bump(map: Map<number, Map<string, number>>, f: number, key: string): void {
  let m = map.get(f);
  if (!m) map.set(f, (m = new Map()));
  m.set(key, (m.get(key) ?? 0) + 1);
}

export function buildCrosswalk(
  features: readonly AdminSourceFeature[],
  places: Iterable<CrosswalkPlace>,
  locate: (lat: number, lon: number) => number | undefined,
  admin1Codes: ReadonlySet<string>,
): { iso2: string[]; admin1: string[]; refinements: Map<number, RefinementPlace[]>; report: CrosswalkReport } {
  const countries = new Map<number, Map<string, number>>();
  const codes = new Map<number, Map<string, number>>();
  const located = new Map<number, RefinementPlace[]>();
  let used = 0;
  let atSea = 0;
  for (const p of places) {
    const f = locate(p.lat, p.lon);
    if (f === undefined) {
      atSea++;
      continue;
    }
    used++;
    bump(countries, f, p.countryCode);
    const code = `${p.countryCode}.${p.admin1}`;
    // Only codes GeoNames lists count ("00" and codes missing from admin1CodesASCII say "none").
    if (admin1Codes.has(code)) {
      bump(codes, f, code);
      let list = located.get(f);
      if (!list) located.set(f, (list = []));
      list.push({ lat: p.lat, lon: p.lon, countryCode: p.countryCode, code });
    }
  }
  const iso2: string[] = [];
  const admin1: string[] = [];
  const report: CrosswalkReport = {
    features: features.length,
    byPlaces: 0,
    splitAreas: 0,
    byNaturalEarthCode: 0,
    countryByPlaces: 0,
    countryChanged: [],
    disagreementsByCountry: {},
    unresolvedCountry: [],
    unresolvedAdmin1: [],
    placesUsed: used,
    placesAtSea: atSea,
  };
  const refinements = new Map<number, RefinementPlace[]>();
  features.forEach((feat, f) => {
    const label = `${feat.adm1Code} ${feat.name} (${feat.isoA2}/${feat.adm0A3})`;
    const neCode = /^[A-Z]{2}$/.test(feat.isoA2) ? feat.isoA2 : "";
    const inside = countries.get(f);
    // Natural Earth's code stands unless none of the places inside are of that country.
    let cc = neCode !== "" && (inside === undefined || inside.has(neCode)) ? neCode : (majority(inside) ?? "");
    if (cc !== "" && cc !== neCode) {
      report.countryByPlaces++;
      if (neCode !== "") report.countryChanged.push(`${feat.adm1Code} ${feat.name}: ${neCode}→${cc}`);
    }
    if (cc === "") cc = COUNTRY_ALLOWLIST[feat.adm1Code] ?? "";
    if (cc === "") report.unresolvedCountry.push(label);
    iso2.push(cc);
    const own = new Map([...(codes.get(f) ?? new Map<string, number>())].filter(([k]) => k.startsWith(`${cc}.`)));
    let code = majority(own.size > 0 ? own : undefined);
    if (code !== undefined) {
      // A Natural Earth area covering several GeoNames admin-1 areas (Kenya's provinces hold its
      // counties): below this share for the leading code, each point takes its nearest place's.
      const total = [...own.values()].reduce((a, b) => a + b, 0);
      if (own.get(code)! < SPLIT_SHARE * total) {
        refinements.set(f, located.get(f)!.filter((p) => p.countryCode === cc).map((p) => ({ ...p })));
        report.splitAreas++;
      }
    }
    if (code !== undefined) {
      report.byPlaces++;
      if (feat.gnA1Code !== code) report.disagreementsByCountry[cc] = (report.disagreementsByCountry[cc] ?? 0) + 1;
    } else if (cc !== "" && feat.gnA1Code.startsWith(`${cc}.`) && admin1Codes.has(feat.gnA1Code)) {
      code = feat.gnA1Code;
      report.byNaturalEarthCode++;
    } else {
      report.unresolvedAdmin1.push(label);
    }
    admin1.push(code ?? "");
  });
  return { iso2, admin1, refinements, report };
}
