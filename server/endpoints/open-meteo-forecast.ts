import { openMeteoErrorBody } from "../open-meteo/open-meteo-error.ts";
import { FORECAST_DAYS_DEFAULT, FORECAST_DAYS_MAX, FORECAST_PARAMS, MAX_LOCATIONS, PAST_DAYS_MAX, parseForecastQuery } from "../open-meteo/forecast-query.ts";
import { forecastFlatBuffers } from "../open-meteo/forecast-flatbuffers.ts";
import { forecastJson } from "../open-meteo/forecast-json.ts";
import { locationForecast, type LocationForecast } from "../open-meteo/location-forecast.ts";
import { SERVED_HOURLY_NAMES } from "../open-meteo/hourly-variables.ts";
import { SERVED_DAILY_NAMES } from "../open-meteo/daily-variables.ts";
import { OPEN_METEO_MODEL_NAMES } from "../open-meteo/models.ts";
import { OPEN_METEO_ERROR_SCHEMA } from "../open-meteo/open-meteo-schemas.ts";
import { defineEndpoint } from "./endpoint.ts";

const DESCRIPTION = `Open-Meteo's forecast API (\`/v1/forecast\`), for its clients (the \`openmeteo\` SDK with
\`format=flatbuffers\`, or JSON), answered from our forecast store: the values are those of
/weather/point at the same point (same model choice, interpolation, height correction and
rounding), converted to the requested units. Subset and every difference: docs/compatibility.md.
- **latitude, longitude**: comma-separated, up to ${MAX_LOCATIONS} points; several points answer a JSON array,
  or one FlatBuffers message per point.
- **hourly** and **current**: Open-Meteo's names. Answered from our store: ${SERVED_HOURLY_NAMES.join(", ")}.
  Any other name Open-Meteo documents is null (never invented); an unknown name is a 400.
- **daily**: ${SERVED_DAILY_NAMES.join(", ")}, for days the run covers whole (else null).
- **Time axis**: hourly from 00:00 local today (minus past_days, default 0, at most ${PAST_DAYS_MAX}) for
  past_days + forecast_days (default ${FORECAST_DAYS_DEFAULT}, at most ${FORECAST_DAYS_MAX}) days; hours without a model step are null.
  When the answering run ended before today (an old run), the axis starts on the day of its first step.
- **models**: best_match (default), one of our model ids, or ${Object.keys(OPEN_METEO_MODEL_NAMES).join(", ")}.
- **timezone**: an IANA id, or auto (the point's zone from our admin dataset); default GMT.
- **Errors**: Open-Meteo's body \`{"error": true, "reason": "..."}\`, with our status (400 for a bad
  parameter or a point no model covers, 401 for the key, 503 for a missing dataset).
- **Key**: the X-Api-Key header, or the \`apikey\` query parameter (never logged).`;

const SERIES = { type: "array", items: { type: ["number", "null"] } };
const LOCATION_SCHEMA = {
  type: "object",
  required: ["latitude", "longitude", "generationtime_ms", "utc_offset_seconds", "timezone", "timezone_abbreviation"],
  properties: {
    latitude: { type: "number", description: "The requested latitude (we interpolate at the point; Open-Meteo gives its grid cell's)." },
    longitude: { type: "number" },
    generationtime_ms: { type: "number" },
    utc_offset_seconds: { type: "integer" },
    timezone: { type: "string" },
    timezone_abbreviation: { type: "string" },
    elevation: { type: "number", description: "Metres, our DEM at the point (as /elevation/point); absent without the elevation dataset." },
    current_units: { type: "object", additionalProperties: { type: "string" } },
    current: { type: "object", required: ["time", "interval"], additionalProperties: { type: ["number", "string", "null"] } },
    hourly_units: { type: "object", additionalProperties: { type: "string" } },
    hourly: { type: "object", required: ["time"], properties: { time: { type: "array", items: { type: ["string", "integer"] } } }, additionalProperties: SERIES },
    daily_units: { type: "object", additionalProperties: { type: "string" } },
    daily: { type: "object", required: ["time"], properties: { time: { type: "array", items: { type: ["string", "integer"] } } }, additionalProperties: { type: "array", items: { type: ["number", "string", "null"] } } },
  },
};

export const openMeteoForecastEndpoint = defineEndpoint({
  path: "/v1/forecast",
  summary: "Open-Meteo compatible forecast (JSON or the SDK's FlatBuffers).",
  params: FORECAST_PARAMS,
  datasets: ["forecast"],
  optionalDatasets: ["admin", "elevation"],
  foreign: { errorBody: openMeteoErrorBody },
  docs: {
    description: DESCRIPTION,
    content: { oneOf: [LOCATION_SCHEMA, { type: "array", items: LOCATION_SCHEMA }] },
    foreign: {
      errorSchema: OPEN_METEO_ERROR_SCHEMA,
      mediaTypes: { "application/octet-stream": { description: "format=flatbuffers: size-prefixed WeatherApiResponse messages of @openmeteo/sdk, one per point." } },
    },
    params: {
      latitude: `Comma-separated WGS84 latitudes, -90 to 90; as many as longitudes, at most ${MAX_LOCATIONS}.`,
      longitude: "Comma-separated WGS84 longitudes, -180 to 180.",
      hourly: "Comma-separated Open-Meteo hourly variable names.",
      current: "Comma-separated variable names for the current conditions (the model step whose span holds the request's instant).",
      daily: "Comma-separated Open-Meteo daily variable names.",
      models: "One model: best_match (default), one of our model ids, or Open-Meteo's name of a model we store.",
      timezone: "IANA timezone id or auto; one, or one per point. Default GMT.",
      forecast_days: `0 to ${FORECAST_DAYS_MAX}, default ${FORECAST_DAYS_DEFAULT}.`,
      past_days: `0 to ${PAST_DAYS_MAX}, default 0.`,
      temperature_unit: "celsius (default) or fahrenheit.",
      wind_speed_unit: "kmh (default), ms, mph or kn.",
      windspeed_unit: "Older spelling of wind_speed_unit.",
      precipitation_unit: "mm (default) or inch (heights then in feet, as Open-Meteo).",
      timeformat: "iso8601 (default, local labels) or unixtime (UTC epoch seconds).",
      cell_selection: "land, sea or nearest: accepted and without effect (we interpolate between the four grid nodes around the point).",
      format: "json (default) or flatbuffers.",
    },
  },
  parse: parseForecastQuery,
  handle: (q, data, ctx) => {
    const locations: LocationForecast[] = [];
    for (let i = 0; i < q.points.length; i++) locations.push(locationForecast(q, i, data, ctx.now));
    if (q.format === "flatbuffers") return { body: forecastFlatBuffers(locations), contentType: "application/octet-stream" };
    return { body: forecastJson(locations, q.timeformat), contentType: "application/json; charset=utf-8" };
  },
});
