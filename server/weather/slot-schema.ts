/** JSON Schemas (OpenAPI 3.1) of the weather time slot and its grouping by local date. */

type Schema = Record<string, unknown>;

const nullableNumber: Schema = { type: ["number", "null"] };
const measure = (unit: string, extra: Record<string, Schema> = {}, required: string[] = []): Schema => ({
  type: "object",
  required: ["value", "unit", ...required],
  properties: { value: nullableNumber, unit: { const: unit }, ...extra },
});
const color: Schema = {
  type: ["object", "null"],
  required: ["background", "text"],
  properties: { background: { type: "string", pattern: "^#[0-9a-f]{6}$" }, text: { enum: ["#000000", "#ffffff"] } },
};
const colored = (extra: Record<string, Schema> = {}): Schema => measure("°C", { color, ...extra }, ["color"]);
const cloud = measure("%", { localData: { type: "integer", description: "Observed cover of a nearby station (percent); present only when one reported." } });

export const WEATHER_SLOT_SCHEMA: Schema = {
  type: "object",
  required: ["clouds", "reltiveHumidity", "liftedIndex", "isotherm", "HPBL", "precipitation", "temperature", "wind", "pressure", "heatIndex"],
  properties: {
    clouds: {
      type: "object",
      required: ["total", "high", "middle", "low", "convective", "boundary"],
      properties: { total: cloud, high: cloud, middle: cloud, low: cloud, convective: cloud, boundary: cloud },
    },
    reltiveHumidity: measure("%"),
    liftedIndex: measure("K"),
    isotherm: measure("m", { temperature: { const: "0 °C" } }, ["temperature"]),
    HPBL: measure("m"),
    precipitation: {
      type: "object",
      required: ["total", "convective", "probability"],
      properties: { total: measure("mm"), convective: measure("mm"), probability: measure("%") },
    },
    temperature: {
      type: "object",
      required: ["isInversion", "surface", "min", "max", "felt"],
      properties: {
        isInversion: { enum: [0, 1] },
        surface: colored({ localStation: { type: "string", description: "Station id of the local observation; present only when one is near." } }),
        min: colored(),
        max: colored(),
        felt: colored(),
      },
    },
    wind: {
      type: "object",
      required: ["speed", "gust", "direction"],
      properties: {
        speed: measure("m/s"),
        gust: measure("m/s"),
        direction: measure("°", { icon: { enum: [0, 45, 90, 135, 180, 225, 270, 315, null] } }, ["icon"]),
      },
    },
    pressure: measure("hPa", { level: { const: "MSL" } }, ["level"]),
    heatIndex: { enum: ["", "1/4", "2/4", "3/4", "4/4"] },
  },
};

/** `[{ "YYYY-MM-DD": [{ "HH:MM": slot }] }]` */
export const WEATHER_DAYS_SCHEMA: Schema = {
  type: "array",
  description: "One object per local date (ascending), keyed YYYY-MM-DD; its value lists one object per slot, keyed by local time HH:MM.",
  items: {
    type: "object",
    minProperties: 1,
    maxProperties: 1,
    patternProperties: {
      "^\\d{4}-\\d{2}-\\d{2}$": {
        type: "array",
        items: { type: "object", minProperties: 1, maxProperties: 1, patternProperties: { "^\\d{2}:\\d{2}$": WEATHER_SLOT_SCHEMA } },
      },
    },
  },
};
