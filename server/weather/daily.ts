/**
 * The daily section of /weather/id: one object per local date of the hourly section, aggregated
 * from that date's slots exactly as they are on the wire (the rounded values of the slot table),
 * so a reader can recompute every daily value from the hourly section:
 * - clouds (each member): the mean of the slots' values, whole percent;
 * - precipitation total and convective: the sum of the windows ending at the day's slots, mm;
 * - precipitation probability: the chance of any precipitation in the day, 1 − Π(1 − p/100) over
 *   the slots' probabilities, assuming the slots independent;
 * - temperature min / max: the smallest slot min and the largest slot max, with their colours;
 * - wind speed and gust: the day's largest; liftedIndex: the day's smallest.
 * Null slot values are left out; a member with no value in the day is null. A day the run covers
 * only in part is still given: the number of its slots in the hourly section tells how much.
 */
import { dailyProbability } from "./derived/probability.ts";
import { fragment, type JsonBytes } from "./json-bytes.ts";
import { colorJson } from "./slot-colors.ts";
import { dayRanges, roundTo, type NumericMember, type SlotTable } from "./slot-table.ts";

type Reduce = "mean" | "sum" | "max" | "min";

/** The reduction of a column over [from, to), NaN values left out; NaN when none is left. */
function reduce(column: Float64Array, from: number, to: number, how: Reduce): number {
  let acc = how === "max" ? -Infinity : how === "min" ? Infinity : 0;
  let count = 0;
  for (let i = from; i < to; i++) {
    const x = column[i]!;
    if (x !== x) continue;
    count++;
    if (how === "max") acc = Math.max(acc, x);
    else if (how === "min") acc = Math.min(acc, x);
    else acc += x;
  }
  if (count === 0) return NaN;
  return how === "mean" ? acc / count : acc;
}

// --- JSON ----------------------------------------------------------------------------------------

/**
 * The daily members in the wire's order, with the text before each value: `writeDailySection`
 * writes the section's JSON without building objects (building and stringifying them cost as
 * much as the rest of a point's forecast part).
 */
const DAILY_MEMBERS: { before: Uint8Array; member: NumericMember; how: Reduce | "chance"; decimals: number; colored?: true }[] = [
  { before: fragment('":{"clouds":{"total":{"value":'), member: "cloudTotal", how: "mean", decimals: 0 },
  { before: fragment(',"unit":"%"},"high":{"value":'), member: "cloudHigh", how: "mean", decimals: 0 },
  { before: fragment(',"unit":"%"},"middle":{"value":'), member: "cloudMiddle", how: "mean", decimals: 0 },
  { before: fragment(',"unit":"%"},"low":{"value":'), member: "cloudLow", how: "mean", decimals: 0 },
  { before: fragment(',"unit":"%"},"convective":{"value":'), member: "cloudConvective", how: "mean", decimals: 0 },
  { before: fragment(',"unit":"%"},"boundary":{"value":'), member: "cloudBoundary", how: "mean", decimals: 0 },
  { before: fragment(',"unit":"%"}},"precipitation":{"total":{"value":'), member: "precipitation", how: "sum", decimals: 2 },
  { before: fragment(',"unit":"mm"},"convective":{"value":'), member: "precipitationConvective", how: "sum", decimals: 2 },
  { before: fragment(',"unit":"mm"},"probability":{"value":'), member: "probability", how: "chance", decimals: 0 },
  { before: fragment(',"unit":"%"}},"temperature":{"min":{"value":'), member: "min", how: "min", decimals: 1, colored: true },
  { before: fragment('},"max":{"value":'), member: "max", how: "max", decimals: 1, colored: true },
  { before: fragment('}},"wind":{"speed":{"value":'), member: "speed", how: "max", decimals: 1 },
  { before: fragment(',"unit":"m/s"},"gust":{"value":'), member: "gust", how: "max", decimals: 1 },
  { before: fragment(',"unit":"m/s"}},"liftedIndex":{"value":'), member: "liftedIndex", how: "min", decimals: 1 },
];
const COLOR = fragment(',"unit":"°C","color":');
const DAY_END = fragment(',"unit":"K"}}}');

/** The daily section's value as JSON: `[{"YYYY-MM-DD":{"clouds":...,"liftedIndex":...}},...]`. */
export function writeDailySection(w: JsonBytes, t: SlotTable): void {
  w.ascii("[");
  const days = dayRanges(t.slots);
  for (let d = 0; d < days.length; d++) {
    const { date, from, to } = days[d]!;
    w.ascii(d === 0 ? '{"' : ',{"').ascii(date);
    for (const m of DAILY_MEMBERS) {
      w.raw(m.before);
      const x = m.how === "chance" ? dayProbability(t, from, to) : roundTo(reduce(t.columns[m.member], from, to, m.how), m.decimals);
      w.num(x);
      if (m.colored) w.raw(COLOR).raw(colorJson(x));
    }
    w.raw(DAY_END);
  }
  w.ascii("]");
}

/** The chance of precipitation in the slots [from, to), whole percent (NaN when no slot has one). */
function dayProbability(t: SlotTable, from: number, to: number): number {
  const probabilities: number[] = [];
  for (let i = from; i < to; i++) if (t.columns.probability[i] === t.columns.probability[i]) probabilities.push(t.columns.probability[i]!);
  return roundTo(dailyProbability(probabilities), 0);
}
