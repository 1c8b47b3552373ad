/**
 * A place by id with its point and administrative description: what /geocode/id answers and what
 * /weather/id repeats, built in one place so the two cannot differ.
 */
import { oceanZone } from "../../datasets/admin/ocean-zones.ts";
import { administrativeParts } from "../admin-description/build-administrative.ts";
import { TimezoneOfPoint } from "../admin-description/describe-timezone.ts";
import type { TemplatePart } from "../api/instant-part.ts";
import { errors, showValue } from "../api/api-error.ts";
import type { PlacesData, PointWire } from "./places-data.ts";
import type { PlaceIdParam } from "./place-id-param.ts";

export interface PlaceAnswer {
  point: PointWire;
  /** `point` as JSON text. */
  pointJson: string;
  /** The administrative description as body parts, its timezone member written at the instant (build-administrative.ts administrativeParts). */
  administrative: TemplatePart[];
  /** The place's GeoNames timezone, or the nautical zone of its longitude when it has none: the one its administrative description's timezone member writes. */
  timezone: TimezoneOfPoint;
}

/** The place with this id; a 404 ApiError when the gazetteer has none. */
export function placeAnswer(places: PlacesData, { id, geonameId }: PlaceIdParam): PlaceAnswer {
  const place = places.placeByGeonameId(geonameId);
  if (place === undefined) throw errors.notFound(`No place with id ${showValue(id)}.`);
  // One read of the record for both the point and the administrative description.
  const record = places.record(place);
  const found = places.administrativeInput(record);
  const input = { ...found, timezone: found.timezone ?? oceanZone(found.lon) };
  const point = places.pointOf(record);
  const timezone = new TimezoneOfPoint(input.timezone, input.lat, input.lon);
  return { point, pointJson: JSON.stringify(point), administrative: administrativeParts(input, timezone), timezone };
}
