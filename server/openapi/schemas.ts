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
    properties: {
      continent: { type: "object", required: ["name", "code"], properties: { name: ref("LocalizedNames"), code: { type: "string" } } },
      country: {
        type: "object",
        required: ["ISO2", "ISO3", "name", "capital", "count"],
        properties: { ISO2: { type: "string" }, ISO3: { type: "string" }, name: ref("LocalizedNames"), capital: { type: "string" }, count: { type: "integer" } },
      },
      administrative1: {
        type: "object",
        required: ["code", "id_admin", "name", "count"],
        properties: { code: { type: "string" }, id_admin: { type: "integer" }, name: { type: "string" }, count: { type: "integer" } },
      },
      timezone: {
        type: "object",
        required: ["timezone", "GMT", "UNIXTimestamp", "isDST", "timeFormatted", "sunrise", "sunset"],
        properties: {
          timezone: { type: "string" },
          GMT: { type: "integer" },
          UNIXTimestamp: { type: "number" },
          isDST: { type: "integer", enum: [0, 1] },
          timeFormatted: { type: "string" },
          sunrise: { type: "string" },
          sunset: { type: "string" },
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
