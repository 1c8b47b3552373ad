import { parseId } from "../http/params.ts";
import { defineEndpoint } from "./endpoint.ts";
import { notServedYet } from "./not-built.ts";

export const weatherMetarEndpoint = defineEndpoint({
  path: "/weather/METAR/2/json",
  summary: "Decoded observations of a METAR station (ICAO identifier).",
  params: ["id"],
  datasets: ["stations"],
  parse: (query) => ({ id: parseId(query) }),
  handle: notServedYet(["stations"]),
});
