import { parseLatitude, parseLongitude } from "../http/params.ts";
import { defineEndpoint } from "./endpoint.ts";
import { notServedYet } from "./not-built.ts";

export const geocodeReverseEndpoint = defineEndpoint({
  path: "/geocode/reverse/2/json",
  summary: "Administrative and timezone description of a latitude/longitude.",
  params: ["lat", "lon"],
  datasets: ["admin", "places"],
  parse: (query) => ({ lat: parseLatitude(query), lon: parseLongitude(query) }),
  handle: notServedYet(["admin", "places"]),
});
