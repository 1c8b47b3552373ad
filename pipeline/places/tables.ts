/**
 * The small tables of the places index: countries (with CLDR names and place counts), continents,
 * admin-1 areas, and the qualifier keys ("us", "united states", "oregon", "il", "on" from ISO
 * 3166-2 CA-ON) that restrict a search to a country or an admin-1 area.
 */
import { createRequire } from "node:module";
import type { Admin1Entry, PlacesTables, QualifierEntry, QualifierWord } from "../../datasets/places/index-format.ts";
import type { ContinentInfo, CountryInfo } from "../../datasets/places/admin-types.ts";
import { foldName } from "../../datasets/places/fold.ts";
import type { Admin1Record } from "./admin1-codes.ts";
import { countryNamesOrFallback, type CldrNames } from "./cldr-names.ts";
import type { CountryRecord } from "./country-info.ts";
import { COUNTRY_FORMS } from "./country-forms.ts";
import type { StagedPlaces } from "./stage-places.ts";
import type { SubdivisionAlias } from "./subdivision-codes.ts";

/** CLDR's English short and variant names ("UK", "US", "Ivory Coast", "Turkey"), by ISO2. */
function cldrEnglishAlternates(): Map<string, string[]> {
  const require = createRequire(import.meta.url);
  const territories = (require("cldr-localenames-full/main/en/territories.json") as {
    main: { en: { localeDisplayNames: { territories: Record<string, string> } } };
  }).main.en.localeDisplayNames.territories;
  const out = new Map<string, string[]>();
  for (const [code, name] of Object.entries(territories)) {
    const m = /^([A-Z]{2})-alt-(short|variant)$/.exec(code);
    if (!m) continue;
    const list = out.get(m[1]!) ?? [];
    list.push(name);
    out.set(m[1]!, list);
  }
  return out;
}

/** Admin-1 codes that read as abbreviations (US.IL, GB.ENG) also qualify; numeric ones (DE.16) do not. */
const ALPHA_CODE = /^[A-Z]{2,3}$/;

export function buildTables(
  countries: readonly CountryRecord[],
  admin1: readonly Admin1Record[],
  cldr: CldrNames,
  staged: StagedPlaces,
  subdivisions: readonly SubdivisionAlias[] = [],
): PlacesTables {
  const countryIndex = new Map(countries.map((c, i) => [c.iso2, i]));
  const countryInfos: CountryInfo[] = countries.map((c, i) => ({
    iso2: c.iso2,
    iso3: c.iso3,
    geonameId: c.geonameId,
    names: countryNamesOrFallback(cldr, c.iso2, c.name),
    capital: c.capital,
    continentCode: c.continent,
    placeCount: staged.countryCounts[i] ?? 0,
  }));
  const continents: ContinentInfo[] = [...cldr.continents.entries()]
    .map(([code, names]) => ({ code, names }))
    .sort((a, b) => (a.code < b.code ? -1 : 1));
  const admin1Entries: Admin1Entry[] = admin1.map((a, i) => ({
    code: a.code,
    geonameId: a.geonameId,
    name: a.name,
    placeCount: staged.admin1Counts[i] ?? 0,
    country: countryIndex.get(a.code.slice(0, 2)) ?? -1,
  }));

  const qualifiers = new Map<string, { countries: Set<number>; admin1: Set<number> }>();
  const add = (text: string, kind: "country" | "admin1", index: number): void => {
    const key = foldName(text);
    if (key === "") return;
    let q = qualifiers.get(key);
    if (!q) {
      q = { countries: new Set(), admin1: new Set() };
      qualifiers.set(key, q);
    }
    (kind === "country" ? q.countries : q.admin1).add(index);
  };
  const alternates = cldrEnglishAlternates();
  countryInfos.forEach((c, i) => {
    add(c.iso2, "country", i);
    add(c.iso3, "country", i);
    add(countries[i]!.name, "country", i);
    for (const name of Object.values(c.names)) add(name, "country", i);
    for (const name of alternates.get(c.iso2) ?? []) add(name, "country", i);
  });
  for (const [iso2, form] of COUNTRY_FORMS) {
    const i = countryIndex.get(iso2);
    if (i !== undefined) add(form, "country", i);
  }
  admin1.forEach((a, i) => {
    const suffix = a.code.slice(3);
    if (ALPHA_CODE.test(suffix)) add(suffix, "admin1", i);
    add(a.code, "admin1", i);
    add(a.name, "admin1", i);
    add(a.asciiName, "admin1", i);
  });
  for (const alias of staged.aliases) add(alias.key, alias.kind, alias.index);
  for (const s of subdivisions) for (const name of s.names) add(name, "admin1", s.index);

  const qualifierList: QualifierEntry[] = [...qualifiers.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, q]) => ({ key, countries: [...q.countries].sort((x, y) => x - y), admin1: [...q.admin1].sort((x, y) => x - y) }));

  return {
    qualifierWords: wordsOf(qualifierList),
    countries: countryInfos,
    continents,
    admin1: admin1Entries,
    features: staged.features,
    timezones: staged.timezones,
    qualifiers: qualifierList,
  };
}

/** Words of fewer code points are not looked up as soft qualifiers (codes such as "il" are whole keys). */
export const MIN_QUALIFIER_WORD = 3;

/**
 * The words of every qualifier key with the areas whose names hold them, sorted by word (UTF-16
 * order, as the server's binary search compares): what an unknown qualifier's words are matched
 * against ("jawa" of "Jawa Tengah" resembles Jawa Barat and Jawa Timur).
 */
function wordsOf(qualifiers: readonly QualifierEntry[]): QualifierWord[] {
  const words = new Map<string, { countries: Set<number>; admin1: Set<number> }>();
  for (const q of qualifiers) {
    for (const word of new Set(q.key.split(" "))) {
      if ([...word].length < MIN_QUALIFIER_WORD) continue;
      let w = words.get(word);
      if (!w) words.set(word, (w = { countries: new Set(), admin1: new Set() }));
      for (const c of q.countries) w.countries.add(c);
      for (const a of q.admin1) w.admin1.add(a);
    }
  }
  return [...words.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([word, w]) => ({ word, countries: [...w.countries].sort((x, y) => x - y), admin1: [...w.admin1].sort((x, y) => x - y) }));
}
