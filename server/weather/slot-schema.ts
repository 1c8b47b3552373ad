/** JSON Schemas (OpenAPI 3.1) of the weather time slot, from its description (slot-shape.ts), and of its grouping by local date. */
import { schemaOf, type Schema } from "./answer-shape.ts";
import { SLOT_SHAPE } from "./slot-shape.ts";

export const WEATHER_SLOT_SCHEMA: Schema = schemaOf(SLOT_SHAPE);

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
