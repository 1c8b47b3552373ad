import { parseLatitude, parseLongitude } from "../http/params.ts";
import { defineEndpoint } from "./endpoint.ts";
import { notServedYet } from "./not-built.ts";

export const weatherPointEndpoint = defineEndpoint({
  path: "/weather/point/2/json",
  summary: "Point weather forecast for a latitude/longitude.",
  params: ["lat", "lon"],
  datasets: ["forecast"],
  parse: (query) => ({ lat: parseLatitude(query), lon: parseLongitude(query) }),
  handle: notServedYet(["forecast"]),
});
