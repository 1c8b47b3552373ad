/**
 * The content of /weather/id, described once (answer-shape.ts) in the spec's order:
 * administrative, point, elevation (when there is one), weather { current, daily, hourly }. Its
 * JSON Schema and its writer come from this description; the writer gives body parts, the
 * administrative description's fragments in place, so that a gzip answer is spliced from their
 * deflated copies (api/body-parts.ts).
 */
import { InstantPart, type TemplatePart } from "../api/instant-part.ts";
import type { TimezoneOfPoint } from "../admin-description/describe-timezone.ts";
import type { ElevationObject } from "../elevation/elevation-object.ts";
import { POINT_SCHEMA } from "../places/point-schema.ts";
import { compileWriter, schemaOf, type Member, type Node, type Schema } from "./answer-shape.ts";
import { DAILY_DAYS, writeDailySection } from "./daily-shape.ts";
import { JsonText } from "./json-text.ts";
import { DATE_PATTERN, TIME_PATTERN, WEATHER_DAYS, writeWeatherDays } from "./slot-writer.ts";
import type { SlotTable } from "./slot-table.ts";

/** What /weather/id answers, as data. */
export interface WeatherIdContent {
  /** The administrative description as body parts (admin-description/build-administrative.ts). */
  administrative: readonly TemplatePart[];
  /** The place's point object, as JSON (places/place-answer.ts). */
  pointJson: string;
  elevation: ElevationObject | undefined;
  /** weather.current, written at the instant (currentAt). */
  current: InstantPart;
  /** The slots at the place; undefined when no loaded run covers it (daily and hourly are then empty). */
  table: SlotTable | undefined;
}

type IdNode = Node<WeatherIdContent>;
const member = (key: string, node: IdNode): Member<WeatherIdContent> => ({ key, node });
const object = (...members: Member<WeatherIdContent>[]): IdNode => ({ kind: "object", members });

/** The place's local date (YYYY-MM-DD) and time (HH:MM) at the request's instant: weather.current. */
interface Current {
  date: string;
  hour: string;
}
/** A string member that needs no escaping (digits, "-" and ":"). */
const plain = (schema: Schema, text: (c: Current) => string): Node<Current> => ({ kind: "value", schema, write: (w, c) => void w.text(`"${text(c)}"`) });
const CURRENT: Node<Current> = {
  kind: "object",
  members: [
    { key: "date", node: plain({ type: "string", pattern: DATE_PATTERN }, (c) => c.date) },
    { key: "hour", node: plain({ type: "string", pattern: TIME_PATTERN }, (c) => c.hour) },
  ],
};
const writeCurrent = compileWriter(CURRENT);

/** weather.current of a place, written at each answer's instant: its administrative description's clock, to the minute. */
export function currentAt(timezone: TimezoneOfPoint): InstantPart {
  return new InstantPart((now) => {
    const w = new JsonText();
    writeCurrent(w, timezone.localDateAndMinute(now), 0);
    return w.json();
  });
}

export const WEATHER_ID_CONTENT: IdNode = object(
  member("administrative", { kind: "value", schema: { $ref: "#/components/schemas/Administrative" }, write: (w, c) => void w.parts(c.administrative) }),
  member("point", { kind: "value", schema: POINT_SCHEMA, write: (w, c) => void w.text(c.pointJson) }),
  {
    key: "elevation",
    node: object(
      member("value", { kind: "value", schema: { type: "integer" }, write: (w, c) => void w.num(c.elevation!.value) }),
      member("unit", { kind: "const", text: "m" }),
    ),
    present: (c) => c.elevation !== undefined,
    description: "What /elevation/point gives at the place; absent without the elevation dataset or DEM data there.",
  },
  member(
    "weather",
    object(
      member("current", { kind: "value", schema: schemaOf(CURRENT), write: (w, c) => void w.parts([c.current]) }),
      member("daily", { kind: "value", schema: schemaOf(DAILY_DAYS), write: (w, c) => void (c.table ? writeDailySection(w, c.table) : w.text("[]")) }),
      member("hourly", { kind: "value", schema: schemaOf(WEATHER_DAYS), write: (w, c) => void (c.table ? writeWeatherDays(w, c.table) : w.text("[]")) }),
    ),
  ),
);

export const WEATHER_ID_CONTENT_SCHEMA: Schema = schemaOf(WEATHER_ID_CONTENT);

const writeContent = compileWriter(WEATHER_ID_CONTENT);

/** The content as body parts. */
export function weatherIdParts(c: WeatherIdContent): TemplatePart[] {
  const w = new JsonText();
  writeContent(w, c, 0);
  return w.toParts();
}
