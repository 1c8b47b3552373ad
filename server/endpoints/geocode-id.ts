import { parseId } from "../http/params.ts";
import { defineEndpoint } from "./endpoint.ts";
import { notServedYet } from "./not-built.ts";

export const geocodeIdEndpoint = defineEndpoint({
  path: "/geocode/id/2/json",
  summary: "One point and its administrative description by service identifier.",
  params: ["id"],
  datasets: ["places"],
  parse: (query) => ({ id: parseId(query) }),
  handle: notServedYet(["places"]),
});
