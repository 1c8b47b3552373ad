import type { Endpoint } from "./endpoint.ts";
import { elevationPointEndpoint } from "./elevation-point.ts";
import { geocodeIdEndpoint } from "./geocode-id.ts";
import { geocodeReverseEndpoint } from "./geocode-reverse.ts";
import { geocodeSearchEndpoint } from "./geocode-search.ts";
import { openMeteoElevationEndpoint } from "./open-meteo-elevation.ts";
import { openMeteoForecastEndpoint } from "./open-meteo-forecast.ts";
import { openMeteoSearchEndpoint } from "./open-meteo-search.ts";
import { photonReverseEndpoint } from "./photon-reverse.ts";
import { photonSearchEndpoint } from "./photon-search.ts";
import { weatherIdEndpoint } from "./weather-id.ts";
import { weatherMetarEndpoint } from "./weather-metar.ts";
import { weatherPointEndpoint } from "./weather-point.ts";
import { weatherSynopEndpoint } from "./weather-synop.ts";

/** The eight endpoints of the spec, in its order. */
export const SPEC_ENDPOINTS: readonly Endpoint[] = [
  weatherPointEndpoint,
  geocodeReverseEndpoint,
  weatherMetarEndpoint,
  weatherSynopEndpoint,
  geocodeSearchEndpoint,
  elevationPointEndpoint,
  geocodeIdEndpoint,
  weatherIdEndpoint,
];

/** Other APIs' endpoints that their clients already speak (docs/compatibility.md). */
export const COMPAT_ENDPOINTS: readonly Endpoint[] = [
  openMeteoForecastEndpoint,
  openMeteoElevationEndpoint,
  openMeteoSearchEndpoint,
  photonSearchEndpoint,
  // Photon's own clients default to the paths with a trailing slash (https://photon.komoot.io/api/).
  { ...photonSearchEndpoint, path: "/api/" },
  photonReverseEndpoint,
  { ...photonReverseEndpoint, path: "/reverse/" },
];

/** Every endpoint the service answers. */
export const ENDPOINTS: readonly Endpoint[] = [...SPEC_ENDPOINTS, ...COMPAT_ENDPOINTS];
