/**
 * JSON Schemas (OpenAPI 3.1) of the spec's shared objects. Wire names exactly as the spec,
 * including `reltiveHumidity`.
 */

type Schema = Record<string, unknown>;

export const LANGUAGE_KEYS = ["AR", "BG", "BR", "DA", "DE", "EL", "EN", "ES", "FR", "HR", "HU", "IT", "JA", "NL", "NO", "PL", "RO", "RU", "SL", "SR", "SV", "TR", "ZH"] as const;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

export const SCHEMAS: Record<string, Schema> = {
  Error: {
    type: "object",
    required: ["status", "code", "message"],
    additionalProperties: false,
    properties: {
      status: { const: "error" },
      code: { type: "integer", description: "The HTTP status, repeated." },
      message: { type: "string", description: "Human-readable; names the parameter and the value given for 400." },
    },
  },
  Measure: {
    type: "object",
    required: ["value", "unit"],
    properties: { value: { type: "number" }, unit: { type: "string" } },
  },
  LocalizedNames: {
    type: "object",
    description: "One name per language key, from CLDR. BR is Brazilian Portuguese (pt), not Breton. When CLDR has no name in a language, the English name is given.",
    required: [...LANGUAGE_KEYS],
    properties: Object.fromEntries(LANGUAGE_KEYS.map((k) => [k, { type: "string" }])),
  },
  Point: {
    type: "object",
    required: ["id", "name", "lat", "lon", "ISO2"],
    properties: {
      id: { type: "string", description: "Service identifier, stable across nightly rebuilds." },
      name: { type: "string" },
      address: { type: "array", items: { type: "string" } },
      lat: { type: "number" },
      lon: { type: "number" },
      type: { type: "string" },
      ISO2: { type: "string" },
    },
  },
  Administrative: {
    type: "object",
    description: "Members are absent when unknown: at sea only timezone; administrative1 absent outside any admin-1 area.",
    properties: {
      continent: { type: "object", required: ["name", "code"], properties: { name: ref("LocalizedNames"), code: { type: "string", description: "GeoNames continent code of the country: AF, AS, EU, NA, OC, SA, AN." } } },
      country: {
        type: "object",
        required: ["ISO2", "ISO3", "name", "capital", "count"],
        properties: { ISO2: { type: "string" }, ISO3: { type: "string" }, name: ref("LocalizedNames"), capital: { type: "string" }, count: { type: "integer", description: "Number of places of our gazetteer in the country." } },
      },
      administrative1: {
        type: "object",
        required: ["code", "id_admin", "name", "count"],
        properties: { code: { type: "string" }, id_admin: { type: "integer", description: "GeoNames id of the admin-1 area." }, name: { type: "string" }, count: { type: "integer", description: "Number of places of our gazetteer in the admin-1 area." } },
      },
      timezone: {
        type: "object",
        required: ["timezone", "GMT", "UNIXTimestamp", "isDST", "timeFormatted", "sunrise", "sunset"],
        properties: {
          timezone: { type: "string", description: "IANA timezone id; Etc/GMT±N at sea (POSIX sign: Etc/GMT-12 is UTC+12)." },
          GMT: { type: "integer", description: "UTC offset at the request's instant, in whole minutes east of UTC (+05:30 is 330, UTC-10 is -600)." },
          UNIXTimestamp: { type: "number", description: "The request's instant, whole seconds since 1970-01-01T00:00:00Z." },
          isDST: { type: "integer", enum: [0, 1], description: "1 when the offset exceeds the zone's standard offset of that year (the smaller of its 21 June and 21 December offsets)." },
          timeFormatted: { type: "string", format: "date-time", description: "Local time at the instant, YYYY-MM-DDTHH:MM:SS±HH:MM (UTC written +00:00)." },
          sunrise: { type: "string", description: "Local sunrise of the instant's local date (NOAA, zenith 90.833°), YYYY-MM-DDTHH:MM:00±HH:MM rounded to the minute; polar-day or polar-night when the sun does not cross the horizon that day.", anyOf: [{ format: "date-time" }, { enum: ["polar-day", "polar-night"] }] },
          sunset: { type: "string", description: "Local sunset, same format and markers as sunrise.", anyOf: [{ format: "date-time" }, { enum: ["polar-day", "polar-night"] }] },
        },
      },
    },
  },
  StationRecord: {
    type: "object",
    properties: {
      wid: { type: "string" },
      visibility: { type: "number" },
      temperature: { type: "number" },
      cloudCover: { type: "number" },
      cloudTypes: { type: "object", properties: { cloudHigh: { type: "number" }, cloudMiddle: { type: "number" }, cloudLow: { type: "number" } } },
      precipitation: { type: "number" },
      precipitationConvective: { type: "number" },
      timestamp: { type: "number" },
    },
  },
  Elevation: {
    type: "object",
    required: ["value", "unit"],
    properties: { value: { type: "integer" }, unit: { type: "string" } },
  },
};

/** The success envelope around a given content schema. */
export function envelope(content: Schema): Schema {
  return {
    type: "object",
    required: ["status", "code", "content"],
    properties: { status: { const: "OK" }, code: { type: "integer", const: 200 }, content },
  };
}
