/**
 * The daily section of /weather/id, described once (answer-shape.ts): one object per local date,
 * keyed YYYY-MM-DD, its members in the spec's order with their units. Its JSON Schema and its
 * writer come from this description; the values are daily.ts's aggregates.
 */
import { compileWriter, type Member, type Node } from "./answer-shape.ts";
import { dailyTable, type DailyMember, type DailyTable } from "./daily.ts";
import type { JsonText } from "./json-text.ts";
import { colorJson } from "./slot-colors.ts";
import { COLOR_SCHEMA } from "./slot-shape.ts";
import type { SlotTable } from "./slot-table.ts";
import { DATE_PATTERN } from "./slot-writer.ts";

type DailyNode = Node<DailyTable>;

const member = (key: string, node: DailyNode): Member<DailyTable> => ({ key, node });
const object = (...members: Member<DailyTable>[]): DailyNode => ({ kind: "object", members });
const measure = (column: DailyMember, unit: string, ...extras: Member<DailyTable>[]): DailyNode => ({ kind: "measure", unit, value: (t, d) => t.columns[column][d]!, extras });
const colored = (column: DailyMember): DailyNode =>
  measure(column, "°C", member("color", { kind: "value", schema: COLOR_SCHEMA, write: (w, t, d) => void w.text(colorJson(t.columns[column][d]!)) }));

/** One day's aggregates. */
export const DAILY_DAY: DailyNode = object(
  member(
    "clouds",
    object(
      member("total", measure("cloudTotal", "%")),
      member("high", measure("cloudHigh", "%")),
      member("middle", measure("cloudMiddle", "%")),
      member("low", measure("cloudLow", "%")),
      member("convective", measure("cloudConvective", "%")),
      member("boundary", measure("cloudBoundary", "%")),
    ),
  ),
  member("precipitation", object(member("total", measure("precipitation", "mm")), member("convective", measure("precipitationConvective", "mm")), member("probability", measure("probability", "%")))),
  member("temperature", object(member("min", colored("min")), member("max", colored("max")))),
  member("wind", object(member("speed", measure("speed", "m/s")), member("gust", measure("gust", "m/s")))),
  member("liftedIndex", measure("liftedIndex", "K")),
);

/** `[{"YYYY-MM-DD":day},...]`, one item per row of the daily table. */
export const DAILY_DAYS: DailyNode = {
  kind: "list",
  description: "One object per local date of hourly (ascending), keyed YYYY-MM-DD: that date's aggregates.",
  rows: (t) => ({ from: 0, to: t.days.length }),
  key: { pattern: DATE_PATTERN, of: (t, d) => t.days[d]!.date },
  item: DAILY_DAY,
};

const writeDaily = compileWriter(DAILY_DAYS);

/** The daily section's value as JSON: `[{"YYYY-MM-DD":{"clouds":...,"liftedIndex":...}},...]`. */
export function writeDailySection(w: JsonText, t: SlotTable): void {
  writeDaily(w, dailyTable(t), 0);
}
