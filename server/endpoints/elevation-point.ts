import { ELEVATION_SOURCE_HEADER, elevationObject, elevationSourceOf } from "../elevation/elevation-object.ts";
import { errors } from "../api/api-error.ts";
import { parseLatitude, parseLongitude } from "../api/params.ts";
import type { ElevationAnswer } from "../elevation/elevation-store.ts";
import { defineEndpoint } from "./endpoint.ts";

const DESCRIPTION = `Elevation of the terrain at a point, in whole metres.

- **Source**: the finest DEM that has data at the point: SRTM 1 arc-second tiles, then SRTM
  3 arc-second tiles, then the global ETOPO5 (5 arc-minutes, about 9 km). The header
  \`${ELEVATION_SOURCE_HEADER}\` names the one that answered as \`<source>;<resolution>\`
  (\`srtm1;1arcsec\`, \`srtm3;3arcsec\`, \`etopo5;5arcmin\`).
- **Outside the SRTM coverage** (north of 60°N, south of 56°S, or wherever no SRTM tile is
  installed) the answer comes from the global DEM: a 200, never an error.
- **Sea points**: the value is the DEM's surface. SRTM gives 0 over the sea (the water surface);
  ETOPO5 includes bathymetry, so where it answers a sea point gives the depth of the sea floor as a
  negative number (for example about -4,300 m at the North Pole).
- **Interpolation**: bilinear between the four surrounding pixel centres (SRTM and ETOPO5 are
  grid-registered: pixel centres lie on whole multiples of the pixel size). Neighbouring SRTM
  tiles share their edge rows and columns, so there is no gap at tile edges; the global DEM wraps
  across ±180° (lon 180 and -180 give the same answer) and at the poles takes the polar row.
- **Voids**: SRTM voids were filled at build time from the next coarser DEM (SRTM3, then ETOPO5).
  A void left unfilled is skipped (the other neighbours' weights are renormalised); where every
  neighbour is void the next coarser DEM answers; where no DEM has data at all the answer is a 404.
- **Rounding**: to the nearest metre, halves away from zero.`;

export const elevationPointEndpoint = defineEndpoint({
  path: "/elevation/point/2/json",
  summary: "Elevation at a latitude/longitude.",
  params: ["lat", "lon"],
  datasets: ["elevation"],
  cache: "release",
  // A lookup (1.1 µs in process: the samples it needs, read where they lie) costs what a kept
  // answer's hit does: keeping the answers cost 11-19 % more CPU on the bench's elevation mix
  // (docs/http.md).
  kept: false,
  docs: {
    description: DESCRIPTION,
    content: {
      type: "object",
      required: ["elevation"],
      properties: {
        elevation: {
          type: "object",
          required: ["value", "unit"],
          properties: {
            value: { type: "integer", description: "Metres above mean sea level (negative below it, e.g. sea floor from ETOPO5)." },
            unit: { const: "m" },
          },
        },
      },
    },
    errors: { "404": "No DEM has data at the point (only when the installed dataset has no global DEM)." },
    params: {
      lat: "Latitude in decimal degrees, -90 to 90 (inclusive).",
      lon: "Longitude in decimal degrees, -180 to 180 (inclusive; 180 and -180 are the same meridian).",
    },
    headers: { [ELEVATION_SOURCE_HEADER]: "The DEM and resolution that answered, `<source>;<resolution>`, e.g. `srtm3;3arcsec`." },
  },
  parse: (query) => ({ lat: parseLatitude(query), lon: parseLongitude(query) }),
  handle: ({ lat, lon }, data) => {
    // A tile damaged after startup throws DataFormatError: the app reports it and answers 503 (server/datasets/fault-check.ts).
    const answer: ElevationAnswer | undefined = data.elevation.lookup(lat, lon);
    if (answer === undefined) throw errors.notFound(`No elevation data at lat ${lat}, lon ${lon}: no installed DEM covers the point.`);
    return { content: { elevation: elevationObject(answer) }, headers: { [ELEVATION_SOURCE_HEADER]: elevationSourceOf(answer) } };
  },
});
