/**
 * The service identifier of a place: `gn:` followed by its GeoNames id, e.g. `gn:2950157`.
 * GeoNames ids are permanent (a deleted feature's id is never reused), so the identifier stays the
 * same across nightly rebuilds. The prefix names the source so that other gazetteers can be added
 * later without clashing. Used by the search, id-lookup and weather-by-id endpoints.
 */

export const PLACE_ID_PREFIX = "gn:";
const PATTERN = /^gn:([1-9][0-9]{0,9})$/;
/** GeoNames ids are stored as uint32. */
const MAX_ID = 0xffffffff;

/** What a malformed id is told it should look like (the 400 message). */
export const PLACE_ID_EXPECTED = "an id of the form gn:<GeoNames id>, e.g. gn:2950157";

export function formatPlaceId(geonameId: number): string {
  return PLACE_ID_PREFIX + String(geonameId);
}

/** The GeoNames id in a service identifier, or undefined when the text is not one. */
export function parsePlaceId(text: string): number | undefined {
  const m = PATTERN.exec(text);
  if (!m) return undefined;
  const id = Number(m[1]);
  return id <= MAX_ID ? id : undefined;
}
