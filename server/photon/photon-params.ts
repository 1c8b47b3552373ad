/**
 * The parameters Photon's /api and /reverse share (komoot/photon RequestFactoryBase), with its
 * messages: lat/lon, limit (clamped to 1..50 as Photon clamps to its -max-results), lang.
 */
import type { LanguageKey } from "../../datasets/places/admin-types.ts";
import type { Query } from "../api/query.ts";
import { LANGUAGE_CODES, languageKeyOf } from "../compat/languages.ts";
import { photonError } from "./photon-error.ts";

export const PHOTON_MAX_RESULTS = 50;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function number(query: Query, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === undefined) return undefined;
  if (raw.length > 32 || !NUMBER.test(raw)) throw photonError(`Invalid value for '${name}' parameter.`);
  return Number(raw);
}

/** lat and lon, both or neither (Photon's checks); required for /reverse. */
export function photonPoint(query: Query, required: boolean): { lat: number; lon: number } | undefined {
  const lat = number(query, "lat");
  const lon = number(query, "lon");
  if (lat !== undefined && !(lat >= -90 && lat <= 90)) throw photonError("Invalid value for 'lat' parameter.");
  if (lon !== undefined && !(lon >= -180 && lon <= 180)) throw photonError("Invalid value for 'lon' parameter.");
  if (lat === undefined && (lon !== undefined || required)) throw photonError("Missing parameter 'lat'.");
  if (lon === undefined && (lat !== undefined || required)) throw photonError("Missing parameter 'lon'.");
  return lat === undefined || lon === undefined ? undefined : { lat, lon };
}

export function photonLimit(query: Query, fallback: number): number {
  const raw = query.get("limit");
  if (raw === undefined) return fallback;
  if (!/^[+-]?\d{1,9}$/.test(raw)) throw photonError("Invalid value for 'limit' parameter.");
  return Math.max(1, Math.min(PHOTON_MAX_RESULTS, Number(raw)));
}

/** The language of country names: `lang`, else English ("default" too: we have no local names of countries). */
export function photonLanguage(query: Query): LanguageKey {
  const raw = query.get("lang");
  if (raw === undefined || raw === "default") return "EN";
  const key = languageKeyOf(raw);
  if (key === undefined || raw.length > 5) throw photonError(`Language is not supported. Supported are: default, ${LANGUAGE_CODES.join(", ")}`);
  return key;
}

/** Parameters accepted for Photon's location bias and checked; our ranking does not use them. */
export function checkBiasParameters(query: Query): void {
  const zoom = query.get("zoom");
  if (zoom !== undefined && !/^[+-]?\d{1,9}$/.test(zoom)) throw photonError("Invalid value for 'zoom' parameter.");
  number(query, "location_bias_scale");
}
