/**
 * A place by id with its point and administrative description: what /geocode/id answers and what
 * /weather/id repeats, built in one place so the two cannot differ.
 */
import { oceanZone } from "../../datasets/admin/ocean-zones.ts";
import { administrativeJson } from "../admin-description/build-administrative.ts";
import { errors, showValue } from "../http/api-error.ts";
import type { PlacesData, PointWire } from "./places-data.ts";
import type { PlaceIdParam } from "./place-id-param.ts";

export interface PlaceAnswer {
  point: PointWire;
  /** The administrative description as JSON text (build-administrative.ts administrativeJson). */
  administrativeJson: string;
  /** The place's GeoNames timezone, or the nautical zone of its longitude when it has none. */
  timezone: string;
}

/** The place with this id; a 404 ApiError when the gazetteer has none. */
export function placeAnswer(places: PlacesData, { id, geonameId }: PlaceIdParam, now: Date): PlaceAnswer {
  const place = places.placeByGeonameId(geonameId);
  if (place === undefined) throw errors.notFound(`No place with id ${showValue(id)}.`);
  const input = places.administrativeInput(place);
  const timezone = input.timezone ?? oceanZone(input.lon);
  return { point: places.point(place), administrativeJson: administrativeJson({ ...input, timezone }, now), timezone };
}
