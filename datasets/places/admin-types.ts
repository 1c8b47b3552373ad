/**
 * Country and admin-1 facts as the places artifact stores them and the administrative builder
 * (server/admin-description/) consumes them. Shared by the places pipeline step, the places
 * reader, reverse geocoding and the weather-by-id endpoint.
 */

/** The spec's language keys, in its order. BR is Brazilian Portuguese (CLDR `pt`), not Breton. */
export const LANGUAGE_KEYS = ["AR", "BG", "BR", "DA", "DE", "EL", "EN", "ES", "FR", "HR", "HU", "IT", "JA", "NL", "NO", "PL", "RO", "RU", "SL", "SR", "SV", "TR", "ZH"] as const;

export type LanguageKey = (typeof LANGUAGE_KEYS)[number];

/** One name per language key. */
export type LocalizedNames = Record<LanguageKey, string>;

export interface ContinentInfo {
  /** GeoNames continent code: AF, AS, EU, NA, OC, SA, AN. */
  code: string;
  names: LocalizedNames;
}

export interface CountryInfo {
  iso2: string;
  iso3: string;
  /** GeoNames id of the country. */
  geonameId: number;
  names: LocalizedNames;
  capital: string;
  /** GeoNames continent code of the country (from countryInfo.txt, not CLDR). */
  continentCode: string;
  /** Number of places of our gazetteer in this country. */
  placeCount: number;
}

export interface Admin1Info {
  /** GeoNames form: country code, dot, admin1 code (e.g. "DE.16"). */
  code: string;
  /** GeoNames id of the admin-1 area (e.g. 2950157 for DE.16 Berlin). */
  geonameId: number;
  name: string;
  /** Number of places of our gazetteer in this admin-1 area. */
  placeCount: number;
}
