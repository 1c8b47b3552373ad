import { PLACE_ID_EXPECTED } from "../../datasets/places/place-id.ts";
import { ELEVATION_SOURCE_HEADER, elevationObject, elevationSourceOf } from "../elevation/elevation-object.ts";
import { parsePlaceIdParam } from "../places/place-id-param.ts";
import { placeAnswer } from "../places/place-answer.ts";
import { elevationAt, pointWeather, setRunAge } from "../weather/point-weather.ts";
import { currentAt, WEATHER_ID_CONTENT_SCHEMA, weatherIdParts, type WeatherIdContent } from "../weather/id-answer.ts";
import { defineEndpoint } from "./endpoint.ts";
import { WEATHER_HEADERS_DOCS } from "./weather-point.ts";

/** Header set when no loaded forecast run covers the place (daily and hourly are then empty). */
export const FORECAST_COVERAGE_HEADER = "X-Forecast-Coverage";

const DESCRIPTION = `Everything about one place in one call: its administrative description, its point,
its elevation and its weather.

- **id**: \`gn:<GeoNames id>\` as for /geocode/id; malformed → 400, unknown → 404.
- **administrative** and **point**: exactly what /geocode/id gives for the same id.
- **elevation**: what /elevation/point gives at the place's coordinates (same rounding; header
  \`${ELEVATION_SOURCE_HEADER}\`). Absent when the elevation dataset is not loaded or no DEM has
  data there.
- **weather.hourly**: exactly the slots /weather/point gives at the place's coordinates (same
  model choice, headers and local dates).
- **weather.current**: the place's local date (YYYY-MM-DD) and time (HH:MM) at the request's
  instant, in the place's own timezone (the one of administrative.timezone).
- **weather.daily**: one object per local date of hourly, aggregated from that date's slots as
  they are on the wire: clouds = the mean of each member; precipitation total and convective = the
  sum of the windows ending at the day's slots; probability = 1 − Π(1 − p/100) over the day's slot
  probabilities (slots assumed independent); temperature min/max = the smallest slot min and the
  largest slot max; wind speed and gust = the day's largest; liftedIndex = the day's smallest. Null
  slot values are left out; a member with none is null. A day the run covers only in part (the
  first and last day, an old run's single step) is still given: count its slots in hourly.
- **No model covers the place**: administrative, point and elevation as usual, weather.daily and
  weather.hourly empty arrays, and the header \`${FORECAST_COVERAGE_HEADER}: none\` (never a 404 or 500).`;

export const weatherIdEndpoint = defineEndpoint({
  path: "/weather/id/2/json",
  summary: "Weather, point, elevation and administrative data by service identifier.",
  params: ["id"],
  datasets: ["places", "forecast"],
  cache: "instant",
  instantHeaders: setRunAge,
  optionalDatasets: ["admin", "elevation", "stations"],
  docs: {
    description: DESCRIPTION,
    content: WEATHER_ID_CONTENT_SCHEMA,
    errors: { "404": "The id is well-formed but no place of the gazetteer has it." },
    params: { id: `Service identifier of a place: ${PLACE_ID_EXPECTED}.` },
    headers: {
      ...WEATHER_HEADERS_DOCS,
      [ELEVATION_SOURCE_HEADER]: "The DEM that gave elevation, as for /elevation/point.",
      [FORECAST_COVERAGE_HEADER]: "`none` when no loaded forecast run covers the place (weather.daily and weather.hourly are then empty).",
    },
  },
  parse: parsePlaceIdParam,
  handle: (param, data, ctx) => {
    const place = placeAnswer(data.places, param);
    const { lat, lon } = place.point;
    // One DEM lookup: the elevation section and the forecast's height correction both use it.
    const height = elevationAt(data, lat, lon);
    const answer = pointWeather(lat, lon, data, ctx.now, height);
    const headers: Record<string, string> = { ...answer?.headers };
    if (height) headers[ELEVATION_SOURCE_HEADER] = elevationSourceOf(height);
    if (!answer) headers[FORECAST_COVERAGE_HEADER] = "none";
    const content: WeatherIdContent = {
      administrative: place.administrative,
      pointJson: place.pointJson,
      elevation: height && elevationObject(height),
      current: currentAt(place.timezone),
      table: answer?.table,
    };
    return { contentParts: weatherIdParts(content), headers };
  },
});
