/**
 * Open-Meteo's geocoding answer (/v1/search) from our places search and ranking: the members of
 * its Geoname message in their field order, written as its protobuf JSON encoder writes them,
 * which leaves out empty members (open-meteo/geocoding-api: ProtoResources/api.proto,
 * Protobuf+Vapor.swift). The documented example: the docs' geocoding-object.
 */
import type { LanguageKey } from "../../datasets/places/admin-types.ts";
import type { PlaceFacts } from "../compat/place-facts.ts";

export interface GeocodingResult {
  facts: PlaceFacts;
  /** Metres from our DEM at the place (as /elevation/point), or undefined. */
  elevation: number | undefined;
}

/** One result object; members Open-Meteo would leave empty are left out (admin2-4, postcodes: we have none). */
export function geonameJson(r: GeocodingResult, language: LanguageKey): string {
  const f = r.facts;
  const parts = [`{"id":${f.geonameId},"name":${JSON.stringify(f.name)},"latitude":${f.lat},"longitude":${f.lon}`];
  if (r.elevation !== undefined) parts.push(`,"elevation":${r.elevation.toFixed(1)}`);
  if (f.featureCode) parts.push(`,"feature_code":${JSON.stringify(f.featureCode)}`);
  if (f.country) parts.push(`,"country_code":${JSON.stringify(f.country.iso2)}`);
  if (f.admin1) parts.push(`,"admin1_id":${f.admin1.geonameId}`);
  if (f.timezone) parts.push(`,"timezone":${JSON.stringify(f.timezone)}`);
  if (f.population > 0) parts.push(`,"population":${f.population}`);
  if (f.country) parts.push(`,"country_id":${f.country.geonameId},"country":${JSON.stringify(f.country.names[language])}`);
  if (f.admin1) parts.push(`,"admin1":${JSON.stringify(f.admin1.name)}`);
  parts.push("}");
  return parts.join("");
}

/** The whole body: `results` left out when empty, as the protobuf encoder does. */
export function searchResultsJson(results: readonly GeocodingResult[], language: LanguageKey, generationMs: number): string {
  const time = `"generationtime_ms":${Math.round(generationMs * 1000) / 1000}`;
  if (results.length === 0) return `{${time}}`;
  return `{"results":[${results.map((r) => geonameJson(r, language)).join(",")}],${time}}`;
}
