/**
 * Reverse geocoding: the admin index finds the country, the admin-1 area and the timezone of a
 * point; the places dataset supplies their facts (names, GeoNames ids, counts); the shared
 * builder turns them into the spec's administrative description.
 *
 * At sea (no admin-1 polygon contains the point) only `timezone` is present: the zone of the
 * territorial waters when a timezone polygon contains the point, else the ocean zone Etc/GMT±N.
 */
import type { AdminIndex } from "../../datasets/admin/admin-index.ts";
import { administrativeParts, buildAdministrative, type AdministrativeInput } from "../admin-description/build-administrative.ts";
import type { TemplatePart } from "../api/instant-part.ts";
import type { AdministrativeWire } from "../admin-description/wire-types.ts";
import type { PlacesData } from "../places/places-data.ts";

export function reverseGeocode(lat: number, lon: number, index: AdminIndex, places: PlacesData, now: Date): AdministrativeWire {
  return buildAdministrative(reverseInput(lat, lon, index, places), now);
}

/** The same description as JSON text in body parts (what the endpoint sends): each area's member a fragment kept per area, the timezone member written at the instant. */
export function reverseGeocodeParts(lat: number, lon: number, index: AdminIndex, places: PlacesData): TemplatePart[] {
  return administrativeParts(reverseInput(lat, lon, index, places));
}

function reverseInput(lat: number, lon: number, index: AdminIndex, places: PlacesData): AdministrativeInput {
  return reverseFacts(lat, lon, index, places).input;
}

/**
 * The facts of a point: its areas' facts from the places dataset, and the admin feature (Natural
 * Earth polygon) containing it, undefined at sea. Photon's /reverse describes the same areas.
 */
export function reverseFacts(lat: number, lon: number, index: AdminIndex, places: PlacesData): { input: AdministrativeInput; adminFeature: number | undefined } {
  const answer = index.lookup(lat, lon);
  const country = answer.iso2 === undefined ? undefined : places.country(answer.iso2);
  const continent = country === undefined ? undefined : places.continent(country.continentCode);
  const admin1 = answer.admin1 === undefined ? undefined : places.admin1(answer.admin1);
  // Absent members as undefined (administrativeParts checks for that) rather than spread in.
  return { input: { country, continent, admin1, timezone: answer.timezone, lat, lon }, adminFeature: answer.adminFeature };
}
