import { errors } from "../api/api-error.ts";
import { languageKeyOf, LANGUAGE_CODES } from "../compat/languages.ts";
import { placeFacts } from "../compat/place-facts.ts";
import { elevationObject } from "../elevation/elevation-object.ts";
import { searchResultsJson, type GeocodingResult } from "../open-meteo/geocoding-answer.ts";
import { openMeteoError, openMeteoErrorBody } from "../open-meteo/open-meteo-error.ts";
import { OPEN_METEO_ERROR_SCHEMA } from "../open-meteo/open-meteo-schemas.ts";
import { defineEndpoint } from "./endpoint.ts";

const COUNT_MAX = 100;
const NAME_MAX = 200;

const DESCRIPTION = `Open-Meteo's geocoding API (\`/v1/search\`, its \`geocoding-api.open-meteo.com\` host), answered
from our places index with the ranking of /geocode/search (the same places in the same order).
- **name**: fewer than 2 characters gives no results (as Open-Meteo); "Name, qualifier" narrows to a
  country or admin-1 area as in /geocode/search.
- **count**: 1 to ${COUNT_MAX}, default 10; outside is Open-Meteo's 400.
- **language**: names countries in ${LANGUAGE_CODES.join(", ")} (CLDR); places and admin-1 areas keep
  their GeoNames name; any other code answers in English.
- **Members**: id (GeoNames id), name, latitude, longitude, elevation (our DEM at the place, when the
  elevation dataset is loaded), feature_code, country_code, admin1_id, timezone, population,
  country_id, country, admin1. Empty members are left out, as Open-Meteo's encoder does; we have
  no admin2-4 nor postcodes. No match: \`{"generationtime_ms": ...}\` without results.
- **format**: json only (Open-Meteo also has protobuf).`;

const RESULT = {
  type: "object",
  required: ["id", "name", "latitude", "longitude"],
  properties: {
    id: { type: "integer" },
    name: { type: "string" },
    latitude: { type: "number" },
    longitude: { type: "number" },
    elevation: { type: "number" },
    feature_code: { type: "string" },
    country_code: { type: "string" },
    admin1_id: { type: "integer" },
    timezone: { type: "string" },
    population: { type: "integer" },
    country_id: { type: "integer" },
    country: { type: "string" },
    admin1: { type: "string" },
  },
};

export const openMeteoSearchEndpoint = defineEndpoint({
  path: "/v1/search",
  summary: "Open-Meteo compatible geocoding search.",
  params: ["name", "count", "language", "format"],
  datasets: ["places"],
  optionalDatasets: ["elevation"],
  foreign: { errorBody: openMeteoErrorBody },
  docs: {
    description: DESCRIPTION,
    content: { type: "object", required: ["generationtime_ms"], properties: { results: { type: "array", items: RESULT }, generationtime_ms: { type: "number" } } },
    foreign: { errorSchema: OPEN_METEO_ERROR_SCHEMA },
    params: {
      name: `Text to search, at most ${NAME_MAX} characters.`,
      count: `Number of results, 1 to ${COUNT_MAX}; default 10.`,
      language: "ISO 639-1 code of the country names; default en.",
      format: "json (the only one).",
    },
  },
  parse: (query) => {
    const name = query.require("name").trim();
    if (name.length > NAME_MAX || /[\u0000-\u001f\u007f-\u009f]/.test(name)) throw errors.invalidParameter("name", name, `1 to ${NAME_MAX} characters without control characters`);
    const raw = query.get("count");
    const count = raw === undefined ? 10 : /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
    if (!(count >= 1 && count <= COUNT_MAX)) throw openMeteoError(`Parameter count must be between 1 and ${COUNT_MAX}.`);
    const format = query.get("format");
    if (format !== undefined && format !== "json") throw openMeteoError(`Geodata answers format=json only; got ${format}.`);
    return { name, count, language: languageKeyOf(query.get("language") ?? "en") ?? "EN" };
  },
  handle: ({ name, count, language }, data) => {
    const started = performance.now();
    const places = name.length < 2 ? [] : data.places.search(name, count, 0).places;
    const results: GeocodingResult[] = [];
    for (const place of places) {
      const facts = placeFacts(data.places, place);
      const height = data.elevation ? data.elevation.lookup(facts.lat, facts.lon) : undefined;
      results.push({ facts, elevation: height ? elevationObject(height).value : undefined });
    }
    return { body: searchResultsJson(results, language, performance.now() - started), contentType: "application/json; charset=utf-8" };
  },
});
