import { parseId } from "../http/params.ts";
import { defineEndpoint } from "./endpoint.ts";
import { notServedYet } from "./not-built.ts";

export const weatherSynopEndpoint = defineEndpoint({
  path: "/weather/SYNOP/2/json",
  summary: "Decoded observations of a SYNOP station (WMO index).",
  params: ["id"],
  datasets: ["stations"],
  parse: (query) => ({ id: parseId(query) }),
  handle: notServedYet(["stations"]),
});
