import { errors } from "../api/api-error.ts";
import { parseLatitude, parseLongitude } from "../api/params.ts";
import { membersMarkdown } from "../weather/members.ts";
import {
  FORECAST_HEIGHT_HEADER,
  FORECAST_MODEL_HEADER,
  FORECAST_PROBABILITY_HEADER,
  FORECAST_RESOLUTION_HEADER,
  FORECAST_RUN_AGE_HEADER,
  FORECAST_RUN_HEADER,
  FORECAST_TIMEZONE_HEADER,
  elevationAt,
  pointWeather,
  setRunAge,
} from "../weather/point-weather.ts";
import { WEATHER_POINT_CONTENT_SCHEMA, weatherPointJson } from "../weather/slot-writer.ts";
import { defineEndpoint } from "./endpoint.ts";

const DESCRIPTION = `The forecast at a latitude/longitude from the best loaded model run, one time slot
per model step, grouped by local date in the point's timezone.

- **Model**: the finest loaded run whose grid contains the point and that carries 2 m
  temperature, 10 m wind and MSL pressure (newest run among equals); a partial run answers only
  where no full one covers the point. Headers \`${FORECAST_MODEL_HEADER}\`, \`${FORECAST_RESOLUTION_HEADER}\`
  and \`${FORECAST_RUN_HEADER}\` name it. A point that no loaded run covers is a 404.
- **Slots**: from the start of the current local day when the run reaches it, else every step of
  the run (old runs keep their own dates). Local dates and times in the zone named by
  \`${FORECAST_TIMEZONE_HEADER}\`.
- **Members**: every member of the spec's time slot is present; a quantity the model does not
  provide is \`value: null\` with its unit. Definitions:

${membersMarkdown()}`;

export const WEATHER_HEADERS_DOCS: Record<string, string> = {
  [FORECAST_MODEL_HEADER]: "Model id of the run that answered, e.g. gfs025 or gfs-2p5-sample.",
  [FORECAST_RESOLUTION_HEADER]: "Grid spacing of that model, e.g. 0.25deg (lat x lon when they differ).",
  [FORECAST_RUN_HEADER]: "Reference time of the run, ISO 8601 UTC, e.g. 2026-11-23T06:00:00Z.",
  [FORECAST_RUN_AGE_HEADER]: "Age of that run at the answer's instant, whole seconds (e.g. 93600: 26 h). The embedded default's sample runs are years old: run `npm run nightly -- --profile light` for a current one.",
  [FORECAST_TIMEZONE_HEADER]: "IANA zone of the local dates and times.",
  [FORECAST_HEIGHT_HEADER]: "`lapse-rate; model-surface=<m>; point=<m>; dem=<source>` when the 2 m temperature was corrected to the point's height, else `none; reason=<why>`.",
  [FORECAST_PROBABILITY_HEADER]: "How precipitation.probability was computed: `neighbourhood; nodes=3x3; threshold=0.1mm`, or `none; reason=...`.",
};

export const weatherPointEndpoint = defineEndpoint({
  path: "/weather/point/2/json",
  summary: "Point weather forecast for a latitude/longitude.",
  params: ["lat", "lon"],
  datasets: ["forecast"],
  cache: "forecast",
  instantHeaders: setRunAge,
  optionalDatasets: ["admin", "elevation", "stations"],
  docs: {
    description: DESCRIPTION,
    content: WEATHER_POINT_CONTENT_SCHEMA,
    errors: { "404": "No loaded forecast run covers the point." },
    params: {
      lat: "Latitude in decimal degrees, -90 to 90 (inclusive).",
      lon: "Longitude in decimal degrees, -180 to 180 (inclusive).",
    },
    headers: WEATHER_HEADERS_DOCS,
  },
  parse: (query) => ({ lat: parseLatitude(query), lon: parseLongitude(query) }),
  handle: ({ lat, lon }, data, ctx) => {
    const answer = pointWeather(lat, lon, data, ctx.now, elevationAt(data, lat, lon));
    if (!answer) throw errors.notFound(`No loaded forecast model covers lat ${lat}, lon ${lon}.`);
    return { contentJson: weatherPointJson(answer.table), headers: answer.headers };
  },
});
