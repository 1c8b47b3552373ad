/** JSON Schemas (OpenAPI 3.1) of the weather time slot and of its grouping by local date, from their one description (slot-shape.ts, slot-writer.ts). */
import { schemaOf, type Schema } from "./answer-shape.ts";
import { SLOT_SHAPE } from "./slot-shape.ts";
import { WEATHER_DAYS } from "./slot-writer.ts";

export const WEATHER_SLOT_SCHEMA: Schema = schemaOf(SLOT_SHAPE);

/** `[{ "YYYY-MM-DD": [{ "HH:MM": slot }] }]` */
export const WEATHER_DAYS_SCHEMA: Schema = schemaOf(WEATHER_DAYS);
