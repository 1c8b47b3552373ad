/**
 * The weather slots grouped by local date as the spec gives them, `[{"YYYY-MM-DD":[{"HH:MM":slot},...]},...]`,
 * described with the slot (answer-shape.ts, slot-shape.ts): its JSON Schema and its writer come
 * from this one description.
 */
import { compileWriter, schemaOf, type Node, type Schema } from "./answer-shape.ts";
import { JsonText } from "./json-text.ts";
import { SLOT_SHAPE } from "./slot-shape.ts";
import { daysOf, type SlotTable } from "./slot-table.ts";

/** The key patterns of the spec's groupings: a local date and a local time. */
export const DATE_PATTERN = "^\\d{4}-\\d{2}-\\d{2}$";
export const TIME_PATTERN = "^\\d{2}:\\d{2}$";

/** One item per local date (row d of daysOf), each the list of that date's slots keyed by local time. */
export const WEATHER_DAYS: Node<SlotTable> = {
  kind: "list",
  description: "One object per local date (ascending), keyed YYYY-MM-DD; its value lists one object per slot, keyed by local time HH:MM.",
  rows: (t) => ({ from: 0, to: daysOf(t).length }),
  key: { pattern: DATE_PATTERN, of: (t, d) => daysOf(t)[d]!.date },
  item: { kind: "list", rows: (t, d) => daysOf(t)[d]!, key: { pattern: TIME_PATTERN, of: (t, i) => t.slots[i]!.time }, item: SLOT_SHAPE },
};


const writeDays = compileWriter(WEATHER_DAYS);

/** Writes the spec's `[{"YYYY-MM-DD":[{"HH:MM":slot},...]},...]`. */
export function writeWeatherDays(w: JsonText, t: SlotTable): void {
  writeDays(w, t, 0);
}

/** The content of /weather/point: `{"weather":days}`. */
const WEATHER_POINT_CONTENT: Node<SlotTable> = { kind: "object", members: [{ key: "weather", node: WEATHER_DAYS }] };

export const WEATHER_POINT_CONTENT_SCHEMA: Schema = schemaOf(WEATHER_POINT_CONTENT);

const writePointContent = compileWriter(WEATHER_POINT_CONTENT);

/** The content of /weather/point as JSON text. */
export function weatherPointJson(t: SlotTable): string {
  const w = new JsonText();
  writePointContent(w, t, 0);
  return w.json();
}
