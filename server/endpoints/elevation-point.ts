import { parseLatitude, parseLongitude } from "../http/params.ts";
import { defineEndpoint } from "./endpoint.ts";
import { notServedYet } from "./not-built.ts";

export const elevationPointEndpoint = defineEndpoint({
  path: "/elevation/point/2/json",
  summary: "Elevation at a latitude/longitude.",
  params: ["lat", "lon"],
  datasets: ["elevation"],
  parse: (query) => ({ lat: parseLatitude(query), lon: parseLongitude(query) }),
  handle: notServedYet(["elevation"]),
});
