import { PLACE_ID_EXPECTED } from "../../datasets/places/place-id.ts";
import { parsePlaceIdParam } from "../places/place-id-param.ts";
import { placeAnswer } from "../places/place-answer.ts";
import { POINT_SCHEMA } from "../places/point-schema.ts";
import { defineEndpoint } from "./endpoint.ts";

const DESCRIPTION = `One place of the gazetteer by its service identifier, with its administrative
description.

- **id** is \`gn:\` followed by the place's GeoNames id (as returned by /geocode/search), e.g.
  \`gn:2950159\` (Berlin). GeoNames never reuses an id, so an id stays valid across nightly
  rebuilds as long as the place is in the gazetteer.
- A text that is not of that form is a **400** naming the parameter; a well-formed id that is not in
  the gazetteer is a **404** with the error body.
- **point** is the same object as in search results.
- **administrative** describes the place itself: its continent (GeoNames continent of its
  country), its country and admin-1 area (from the place's GeoNames codes, with \`count\` = number
  of places of the gazetteer in that country or area), and \`timezone\` computed for the place's
  own GeoNames timezone at the request's instant (GMT = offset in minutes; see the
  administrative description). A place whose GeoNames record has no timezone gets the nautical
  zone of its longitude (Etc/GMT±N). A member whose input is unknown is left out.`;

export const geocodeIdEndpoint = defineEndpoint({
  path: "/geocode/id/2/json",
  summary: "One point and its administrative description by service identifier.",
  params: ["id"],
  datasets: ["places"],
  cache: "instant",
  docs: {
    description: DESCRIPTION,
    content: {
      type: "object",
      required: ["point", "administrative"],
      properties: {
        point: POINT_SCHEMA,
        administrative: { $ref: "#/components/schemas/Administrative" },
      },
    },
    errors: { "404": "The id is well-formed but no place of the gazetteer has it." },
    params: { id: `Service identifier of a place: ${PLACE_ID_EXPECTED}.` },
  },
  parse: parsePlaceIdParam,
  handle: (param, data) => {
    const { pointJson, administrative } = placeAnswer(data.places, param);
    return { contentParts: [`{"point":${pointJson},"administrative":`, ...administrative, "}"] };
  },
});
