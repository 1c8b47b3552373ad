/**
 * The places search index (`places/places.idx`, envelope magic GEODPLCS): section list, table
 * shapes and sentinels shared by the writer (pipeline) and the reader (server). Bytes: FORMAT.md.
 */
import type { Admin1Info, ContinentInfo, CountryInfo } from "./admin-types.ts";

/** The payload's sections, in file order. Values are the section numbers of FORMAT.md. */
export const Section = {
  areas: 0,
  places: 1,
  names: 2,
  idPairs: 3,
  idDirectory: 4,
  keyBlocks: 5,
  keyDirectory: 6,
  postings: 7,
  typoKeys: 8,
  variantDirectory: 9,
  variants: 10,
  qualifierBlocks: 11,
  qualifierDirectory: 12,
  wordBlocks: 13,
  wordDirectory: 14,
  qualifierAreas: 15,
} as const;

export const SECTION_COUNT = 16;
/** Section table: u32 count, then (u32 offset, u32 byteLength) per section; padded to 8. */
export const SECTION_TABLE_BYTES = Math.ceil((4 + SECTION_COUNT * 8) / 8) * 8;

/** u16 "none" in the country, admin1, feature and timezone fields. */
export const NONE16 = 0xffff;

/** Coordinates are stored as int32 in units of 1e-7 degree (exact for GeoNames' decimals). */
export const COORD_SCALE = 1e7;

/**
 * A place record (section `places`, one per place in rank order): u32 GeoNames id, i32 latitude
 * and longitude (1e-7 degree), u32 population, u16 country, admin1, feature and timezone (table
 * indexes or NONE16), u32 offset and u32 length of its name in `names`, then the name's first
 * NAME_INLINE bytes (zero-padded): most names are shorter, so a record is one read.
 */
export const PLACE_BYTES = 64;
export const NAME_INLINE = 32;

/**
 * A posting (section `postings`): u32 `placeIndex * 4 + primary * 2 + weak`, then what ranking
 * needs of the place so that it reads no place record: f32 base score (log10(population + 1) -
 * feature malus), u16 country, u16 admin1, u16 feature, u16 flags (APOSTROPHE_FLAG).
 * weak = the name is historic, colloquial or a code (matched exactly only); primary = the key is
 * the place's GeoNames name or ASCII name (typo matches count only through primary names).
 */
export const POSTING_BYTES = 16;
export const WEAK_BIT = 1;
export const PRIMARY_BIT = 2;
export const POSTING_SHIFT = 2;
/** The place's GeoNames name folds differently when its apostrophes are kept (server/places/literal.ts). */
export const APOSTROPHE_FLAG = 1;

/** Set in a place key's second value when the key takes part in typo matching; the low 31 bits count its postings. */
export const TYPO_KEY_FLAG = 0x80000000;

/** A typo key record (section `typoKeys`): u32 first posting, u32 posting count, u16 key byte length, the key's bytes. */
export const TYPO_RECORD_HEAD = 10;

/** A variant entry (section `variants`): u16 low 16 bits of the hash, u8 length tag, u8 window (0 prefix, 1 suffix), u32 typo record offset. */
export const VARIANT_BYTES = 8;

/** GeoNames ids per block of `idPairs` (8 bytes a pair); `idDirectory` holds each block's first id. */
export const IDS_PER_BLOCK = 128;

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

/** The small tables of section `areas` (JSON). Place records and postings hold indexes into them. */
export interface PlacesAreas {
  countries: CountryInfo[];
  continents: ContinentInfo[];
  admin1: Admin1Entry[];
  features: FeatureEntry[];
  timezones: string[];
}

/** What the pipeline hands the writer: the areas and the qualifier tables (written as key tables). */
export interface PlacesTables extends PlacesAreas {
  /** Sorted by key. */
  qualifiers: QualifierEntry[];
  /** Words of the qualifier keys (3+ code points). */
  qualifierWords: QualifierWord[];
}
