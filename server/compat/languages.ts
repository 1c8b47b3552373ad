/**
 * The `language` / `lang` parameters of the other APIs' geocoders: ISO 639-1 codes, mapped to the
 * spec's language keys of our CLDR names (countries are named in those 23 languages; places and
 * admin-1 areas keep their GeoNames name). Norwegian is `no` or `nb`; BR is Portuguese (`pt`).
 */
import { LANGUAGE_KEYS, type LanguageKey } from "../../datasets/places/admin-types.ts";

const BY_CODE = new Map<string, LanguageKey>(LANGUAGE_KEYS.map((k) => [k === "BR" ? "pt" : k.toLowerCase(), k]));
BY_CODE.set("nb", "NO");

/** The language codes we name countries in. */
export const LANGUAGE_CODES: readonly string[] = [...BY_CODE.keys()].sort();

/** The key of an ISO 639-1 code (case-insensitive, a region suffix such as de-CH ignored), or undefined. */
export function languageKeyOf(code: string): LanguageKey | undefined {
  return BY_CODE.get(code.toLowerCase().split(/[-_]/)[0]!);
}
