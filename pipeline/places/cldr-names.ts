/**
 * Localized country and continent names from CLDR, as shipped by the `cldr-localenames-full` npm
 * package (`main/<locale>/territories.json`, the Unicode CLDR JSON build).
 *
 * Language keys of the spec → CLDR locales. Decisions where the key alone is ambiguous:
 * - BR is Brazilian Portuguese: CLDR `pt` (whose default region is Brazil), not Breton `br`.
 * - NO is Norwegian Bokmål: CLDR `nb` (the `no` folder of CLDR 48 holds identical territory names;
 *   `nb` is the one every CLDR release since 2012 carries).
 * - SR is Serbian in Cyrillic script: CLDR `sr` (= sr-Cyrl, CLDR's default for Serbian and the
 *   official script of Serbia under its constitution), not `sr-Latn`.
 * - ZH is Simplified Chinese: CLDR `zh` (= zh-Hans), not Traditional `zh-Hant`.
 * Names are CLDR's default forms (not the `-alt-short` / `-alt-variant` ones): "Hong Kong SAR
 * China", "Côte d’Ivoire", "Türkiye".
 *
 * Continents are keyed by GeoNames continent code, mapped to UN M.49 regions: AF→002 Africa,
 * AS→142 Asia, EU→150 Europe, NA→003 North America (with Central America and the Caribbean, as
 * GeoNames' NA), OC→009 Oceania, SA→005 South America, and AN→ the territory AQ Antarctica (M.49
 * has no Antarctica region).
 *
 * Fallbacks: a territory missing in one locale gets the English CLDR name (none is missing in
 * CLDR 48; `fallbacks` lists any). GeoNames codes that CLDR does not know at all (AN Netherlands
 * Antilles and CS Serbia and Montenegro, both dissolved) are absent from `countries`: use
 * `countryNamesOrFallback` with the GeoNames English name. XK Kosovo is in CLDR.
 */
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { DataFormatError, MissingInputError } from "../../datasets/common/errors.ts";
import { LANGUAGE_KEYS } from "../../datasets/places/admin-types.ts";
import type { LanguageKey, LocalizedNames } from "../../datasets/places/admin-types.ts";

/** CLDR locale of each language key (see the module comment for the ambiguous ones). */
export const CLDR_LOCALE_OF: Readonly<Record<LanguageKey, string>> = {
  AR: "ar", BG: "bg", BR: "pt", DA: "da", DE: "de", EL: "el", EN: "en", ES: "es", FR: "fr",
  HR: "hr", HU: "hu", IT: "it", JA: "ja", NL: "nl", NO: "nb", PL: "pl", RO: "ro", RU: "ru",
  SL: "sl", SR: "sr", SV: "sv", TR: "tr", ZH: "zh",
};

/** GeoNames continent code → CLDR territory code (M.49 region, or AQ for Antarctica). */
export const CLDR_TERRITORY_OF_CONTINENT: Readonly<Record<string, string>> = {
  AF: "002", AS: "142", EU: "150", NA: "003", OC: "009", SA: "005", AN: "AQ",
};

const PACKAGE = "cldr-localenames-full";
const ISO2 = /^[A-Z]{2}$/;

export interface CldrFallback {
  language: LanguageKey;
  /** ISO2 or M.49 code that locale lacks; the English name was used. */
  code: string;
}

export interface CldrNames {
  /** Keyed by ISO 3166-1 alpha-2 code (CLDR's two-letter territories, including XK). */
  countries: Map<string, LocalizedNames>;
  /** Keyed by GeoNames continent code (AF, AS, EU, NA, OC, SA, AN). */
  continents: Map<string, LocalizedNames>;
  /** The (language, code) pairs filled with the English name. */
  fallbacks: CldrFallback[];
  /** CLDR release of the installed package, e.g. "48". */
  cldrVersion: string;
}

/** Absolute paths of the territories.json files read, one per language key (for build metadata). */
export function cldrNameFiles(): string[] {
  return LANGUAGE_KEYS.map((key) => territoriesFile(CLDR_LOCALE_OF[key]));
}

function territoriesFile(locale: string): string {
  const require = createRequire(import.meta.url);
  const specifier = `${PACKAGE}/main/${locale}/territories.json`;
  try {
    return require.resolve(specifier);
  } catch {
    throw new MissingInputError(specifier, `CLDR territory names for locale ${locale} (npm package ${PACKAGE})`);
  }
}

function readTerritories(locale: string): Record<string, string> {
  const file = territoriesFile(locale);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new DataFormatError({ file }, "CLDR territories JSON", (error as Error).message);
  }
  const territories = (parsed as { main?: Record<string, { localeDisplayNames?: { territories?: unknown } }> })
    ?.main?.[locale]?.localeDisplayNames?.territories;
  if (territories === null || typeof territories !== "object") {
    throw new DataFormatError({ file, field: `main.${locale}.localeDisplayNames.territories` }, "an object of names", typeof territories);
  }
  const out: Record<string, string> = {};
  for (const [code, name] of Object.entries(territories as Record<string, unknown>)) {
    if (typeof name !== "string" || name.length === 0) {
      throw new DataFormatError({ file, field: `territories.${code}` }, "a non-empty string", JSON.stringify(name));
    }
    out[code] = name;
  }
  return out;
}

function cldrVersion(): string {
  const require = createRequire(import.meta.url);
  const pkg = require(`${PACKAGE}/package.json`) as { cldrVersion?: unknown; version?: unknown };
  return String(pkg.cldrVersion ?? pkg.version ?? "unknown");
}

/**
 * Reads the 23 locales' territory names. Throws MissingInputError when the package or a locale is
 * not installed, DataFormatError when a file is not the CLDR JSON shape, or English lacks a
 * continent region.
 */
export function loadCldrNames(): CldrNames {
  const byLanguage = new Map<LanguageKey, Record<string, string>>();
  for (const key of LANGUAGE_KEYS) byLanguage.set(key, readTerritories(CLDR_LOCALE_OF[key]));
  const english = byLanguage.get("EN")!;
  const fallbacks: CldrFallback[] = [];

  const namesOf = (code: string): LocalizedNames => {
    const names = {} as LocalizedNames;
    for (const key of LANGUAGE_KEYS) {
      const name = byLanguage.get(key)![code];
      if (name === undefined) fallbacks.push({ language: key, code });
      names[key] = name ?? english[code]!;
    }
    return names;
  };

  const countries = new Map<string, LocalizedNames>();
  for (const code of Object.keys(english).filter((c) => ISO2.test(c)).sort()) {
    countries.set(code, namesOf(code));
  }

  const continents = new Map<string, LocalizedNames>();
  for (const [continent, territory] of Object.entries(CLDR_TERRITORY_OF_CONTINENT)) {
    if (english[territory] === undefined) {
      throw new DataFormatError({ file: territoriesFile("en"), field: `territories.${territory}` }, `the name of ${continent}`, "nothing");
    }
    continents.set(continent, namesOf(territory));
  }
  return { countries, continents, fallbacks, cldrVersion: cldrVersion() };
}

/**
 * The localized names of a GeoNames country: CLDR's when CLDR knows the code, otherwise the
 * GeoNames English name (from countryInfo.txt) in every language, e.g. AN "Netherlands Antilles".
 */
export function countryNamesOrFallback(cldr: Pick<CldrNames, "countries">, iso2: string, geonamesName: string): LocalizedNames {
  const names = cldr.countries.get(iso2);
  if (names !== undefined) return names;
  const fallback = {} as LocalizedNames;
  for (const key of LANGUAGE_KEYS) fallback[key] = geonamesName;
  return fallback;
}
