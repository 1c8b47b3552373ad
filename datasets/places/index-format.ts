/**
 * The places search index (`places/places.idx`, envelope magic GEODPLCS): section list, table
 * shapes and sentinels shared by the writer (pipeline) and the reader (server). Bytes: FORMAT.md.
 */
import type { Admin1Info, ContinentInfo, CountryInfo } from "./admin-types.ts";

/** The payload's sections, in file order. Values are the section numbers of FORMAT.md. */
export const Section = {
  tables: 0,
  geonameId: 1,
  latE7: 2,
  lonE7: 3,
  population: 4,
  country: 5,
  admin1: 6,
  feature: 7,
  timezone: 8,
  nameOffsets: 9,
  nameBytes: 10,
  idOrder: 11,
  keyOffsets: 12,
  keyBytes: 13,
  postingOffsets: 14,
  postings: 15,
  fuzzyKeys: 16,
  fuzzyLengths: 17,
  variantDirectory: 18,
  variantLow16: 19,
  variantPostings: 20,
} as const;

export const SECTION_COUNT = 21;
/** Section table: u32 count, then (u32 offset, u32 byteLength) per section; padded to 8. */
export const SECTION_TABLE_BYTES = Math.ceil((4 + SECTION_COUNT * 8) / 8) * 8;

/** u16 "none" in the country, admin1, feature and timezone columns. */
export const NONE16 = 0xffff;

/** Coordinates are stored as int32 in units of 1e-7 degree (exact for GeoNames' decimals). */
export const COORD_SCALE = 1e7;

/**
 * A posting is `placeIndex * 4 + primary * 2 + weak`: weak = the name is historic, colloquial or a
 * code (matched exactly only); primary = the key is the place's GeoNames name or ASCII name (typo
 * matches count only through primary names).
 */
export const WEAK_BIT = 1;
export const PRIMARY_BIT = 2;
export const POSTING_SHIFT = 2;

export interface Admin1Entry extends Admin1Info {
  /** Index into `countries`, or -1 when the country is not in countryInfo. */
  country: number;
}

export interface FeatureEntry {
  /** GeoNames feature class (one letter, may be empty in allCountries). */
  featureClass: string;
  /** GeoNames feature code, e.g. PPLC (may be empty). */
  featureCode: string;
}

/** A folded qualifier text ("us", "united states", "oregon", "il") and what it restricts to. */
export interface QualifierEntry {
  key: string;
  /** Indexes into `countries`. */
  countries: number[];
  /** Indexes into `admin1`. */
  admin1: number[];
}

/** A word of the qualifier keys and the areas whose names hold it (soft qualifiers, server/places/soft-qualifier.ts). */
export interface QualifierWord {
  word: string;
  /** Indexes into `countries`. */
  countries: number[];
  /** Indexes into `admin1`. */
  admin1: number[];
}

/** The small tables, stored as one JSON section. Place columns hold indexes into them. */
export interface PlacesTables {
  countries: CountryInfo[];
  continents: ContinentInfo[];
  admin1: Admin1Entry[];
  features: FeatureEntry[];
  timezones: string[];
  /** Sorted by key. */
  qualifiers: QualifierEntry[];
  /** Words of the qualifier keys (3+ code points), sorted by word in UTF-16 order. */
  qualifierWords: QualifierWord[];
}
