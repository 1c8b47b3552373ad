import { PLACE_ID_EXPECTED } from "../../datasets/places/place-id.ts";
import { parsePlaceIdParam } from "../places/place-id-param.ts";
import { defineEndpoint } from "./endpoint.ts";
import { notServedYet } from "./not-built.ts";

export const weatherIdEndpoint = defineEndpoint({
  path: "/weather/id/2/json",
  summary: "Weather, point, elevation and administrative data by service identifier.",
  params: ["id"],
  datasets: ["places", "elevation", "forecast"],
  docs: {
    description: "Not answered by this version yet (503 even when its datasets are loaded). The id has the same form as for /geocode/id: `gn:<GeoNames id>`.",
    content: { type: "object" },
    params: { id: `Service identifier of a place: ${PLACE_ID_EXPECTED}.` },
  },
  parse: parsePlaceIdParam,
  handle: notServedYet(["places", "elevation", "forecast"]),
});
