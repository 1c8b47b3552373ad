import type { Endpoint } from "./endpoint.ts";
import { elevationPointEndpoint } from "./elevation-point.ts";
import { geocodeIdEndpoint } from "./geocode-id.ts";
import { geocodeReverseEndpoint } from "./geocode-reverse.ts";
import { geocodeSearchEndpoint } from "./geocode-search.ts";
import { weatherIdEndpoint } from "./weather-id.ts";
import { weatherMetarEndpoint } from "./weather-metar.ts";
import { weatherPointEndpoint } from "./weather-point.ts";
import { weatherSynopEndpoint } from "./weather-synop.ts";

/** The eight endpoints of the spec, in its order. */
export const ENDPOINTS: readonly Endpoint[] = [
  weatherPointEndpoint,
  geocodeReverseEndpoint,
  weatherMetarEndpoint,
  weatherSynopEndpoint,
  geocodeSearchEndpoint,
  elevationPointEndpoint,
  geocodeIdEndpoint,
  weatherIdEndpoint,
];
