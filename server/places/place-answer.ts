/**
 * A place by id with its point and administrative description: what /geocode/id answers and what
 * /weather/id repeats, built in one place so the two cannot differ.
 */
import { oceanZone } from "../../datasets/admin/ocean-zones.ts";
import { administrativeParts, type AdministrativeInput } from "../admin-description/build-administrative.ts";
import type { HandlerContext } from "../endpoints/endpoint.ts";
import type { BodyPart } from "../http/body-parts.ts";
import { errors, showValue } from "../http/api-error.ts";
import type { PlacesData, PointWire } from "./places-data.ts";
import type { PlaceIdParam } from "./place-id-param.ts";

export interface PlaceAnswer {
  point: PointWire;
  /** `point` as JSON text. */
  pointJson: string;
  /** The administrative description as body parts (build-administrative.ts administrativeParts). */
  administrative: BodyPart[];
  /** The place's GeoNames timezone, or the nautical zone of its longitude when it has none. */
  timezone: string;
}

/** What does not depend on the instant: the same for every request of the place while its data serve. */
interface PlaceFacts {
  point: PointWire;
  pointJson: string;
  input: AdministrativeInput;
}

/**
 * The place with this id; a 404 ApiError when the gazetteer has none. `memo` (HandlerContext.memo)
 * keeps the place's facts (its point and the inputs of its description) between requests; only the
 * timezone member, which carries the instant, is built each time.
 */
export function placeAnswer(places: PlacesData, { id, geonameId }: PlaceIdParam, now: Date, memo?: HandlerContext["memo"]): PlaceAnswer {
  const facts = (): PlaceFacts | undefined => {
    const place = places.placeByGeonameId(geonameId);
    if (place === undefined) return undefined;
    const input = places.administrativeInput(place);
    const point = places.point(place);
    return { point, pointJson: JSON.stringify(point), input: { ...input, timezone: input.timezone ?? oceanZone(input.lon) } };
  };
  const found = memo ? memo(`place ${geonameId}`, (f) => (f ? f.pointJson.length * 2 : 0), facts) : facts();
  if (found === undefined) throw errors.notFound(`No place with id ${showValue(id)}.`);
  return { point: found.point, pointJson: found.pointJson, administrative: administrativeParts(found.input, now, { sunTextsOwner: found.input }), timezone: found.input.timezone };
}
