import { parseLimit, parseOffset, parseQ } from "../http/params.ts";
import { defineEndpoint } from "./endpoint.ts";
import { notServedYet } from "./not-built.ts";

export const geocodeSearchEndpoint = defineEndpoint({
  path: "/geocode/search/2/json",
  summary: "Forward geocoding: free-text search returning points.",
  params: ["q", "limit", "offset"],
  datasets: ["places"],
  parse: (query) => ({ q: parseQ(query), limit: parseLimit(query), offset: parseOffset(query) }),
  handle: notServedYet(["places"]),
});
