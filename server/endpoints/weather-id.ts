import { parseId } from "../http/params.ts";
import { defineEndpoint } from "./endpoint.ts";
import { notServedYet } from "./not-built.ts";

export const weatherIdEndpoint = defineEndpoint({
  path: "/weather/id/2/json",
  summary: "Weather, point, elevation and administrative data by service identifier.",
  params: ["id"],
  datasets: ["places", "elevation", "forecast"],
  parse: (query) => ({ id: parseId(query) }),
  handle: notServedYet(["places", "elevation", "forecast"]),
});
