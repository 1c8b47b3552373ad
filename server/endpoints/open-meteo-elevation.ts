import { elevationObject } from "../elevation/elevation-object.ts";
import { parseCoordinates } from "../open-meteo/forecast-query.ts";
import { openMeteoErrorBody } from "../open-meteo/open-meteo-error.ts";
import { OPEN_METEO_ERROR_SCHEMA } from "../open-meteo/open-meteo-schemas.ts";
import { defineEndpoint } from "./endpoint.ts";

const MAX_POINTS = 100;

const DESCRIPTION = `Open-Meteo's elevation API (\`/v1/elevation\`): \`{"elevation": [...]}\`, one value per point,
in the order given, the same whole metres /elevation/point answers (our DEMs: SRTM, then ETOPO5;
Open-Meteo uses Copernicus GLO-90). Up to ${MAX_POINTS} comma-separated coordinates; Open-Meteo's
messages for a bad count or range. A point no DEM covers is null.`;

export const openMeteoElevationEndpoint = defineEndpoint({
  path: "/v1/elevation",
  summary: "Open-Meteo compatible elevation of up to 100 points.",
  params: ["latitude", "longitude"],
  datasets: ["elevation"],
  foreign: { errorBody: openMeteoErrorBody },
  docs: {
    description: DESCRIPTION,
    content: { type: "object", required: ["elevation"], properties: { elevation: { type: "array", items: { type: ["number", "null"] } } } },
    foreign: { errorSchema: OPEN_METEO_ERROR_SCHEMA },
    params: { latitude: `Comma-separated WGS84 latitudes, at most ${MAX_POINTS}.`, longitude: "Comma-separated WGS84 longitudes, as many as latitudes." },
  },
  parse: (query) => parseCoordinates(query, MAX_POINTS),
  handle: (points, data) => {
    const values: string[] = [];
    for (const { lat, lon } of points) {
      // A damaged tile throws DataFormatError: the app reports it and answers 503 (as /elevation/point).
      const answer = data.elevation.lookup(lat, lon);
      // Whole metres written as Open-Meteo writes its floats (38.0).
      values.push(answer ? elevationObject(answer).value.toFixed(1) : "null");
    }
    return { body: `{"elevation":[${values.join(",")}]}`, contentType: "application/json; charset=utf-8" };
  },
});
