import { PLACE_ID_EXPECTED, parsePlaceId } from "../../datasets/places/place-id.ts";
import { errors } from "../api/api-error.ts";
import { parseId } from "../api/params.ts";
import type { Query } from "../api/query.ts";

export interface PlaceIdParam {
  /** The id as given (trimmed), for messages. */
  id: string;
  geonameId: number;
}

/** The `id` parameter of the endpoints that take a place's service identifier (`gn:<GeoNames id>`). */
export function parsePlaceIdParam(query: Query): PlaceIdParam {
  const raw = parseId(query);
  const geonameId = parsePlaceId(raw);
  if (geonameId === undefined) throw errors.invalidParameter("id", raw, PLACE_ID_EXPECTED);
  return { id: raw, geonameId };
}
