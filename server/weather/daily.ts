/**
 * The daily section of /weather/id as data: one row per local date of the hourly section,
 * aggregated from that date's slots exactly as they are on the wire (the rounded values of the
 * slot table), so a reader can recompute every daily value from the hourly section:
 * - clouds (each member): the mean of the slots' values, whole percent;
 * - precipitation total and convective: the sum of the windows ending at the day's slots, mm;
 * - precipitation probability: the chance of any precipitation in the day, 1 − Π(1 − p/100) over
 *   the slots' probabilities, assuming the slots independent;
 * - temperature min / max: the smallest slot min and the largest slot max, with their colours;
 * - wind speed and gust: the day's largest; liftedIndex: the day's smallest.
 * Null slot values are left out; a member with no value in the day is null. A day the run covers
 * only in part is still given: the number of its slots in the hourly section tells how much.
 * Its description and writer: daily-shape.ts.
 */
import { dailyProbability } from "./derived/probability.ts";
import { numbers } from "./numbers.ts";
import { daysOf, roundTo, type DayRange, type NumericMember, type SlotTable } from "./slot-table.ts";

type Reduce = "mean" | "sum" | "max" | "min" | "chance";

/** The daily members: the slot column each aggregates, how, and the decimals on the wire. */
export const DAILY_REDUCTIONS = {
  cloudTotal: { how: "mean", decimals: 0 },
  cloudHigh: { how: "mean", decimals: 0 },
  cloudMiddle: { how: "mean", decimals: 0 },
  cloudLow: { how: "mean", decimals: 0 },
  cloudConvective: { how: "mean", decimals: 0 },
  cloudBoundary: { how: "mean", decimals: 0 },
  precipitation: { how: "sum", decimals: 2 },
  precipitationConvective: { how: "sum", decimals: 2 },
  probability: { how: "chance", decimals: 0 },
  min: { how: "min", decimals: 1 },
  max: { how: "max", decimals: 1 },
  speed: { how: "max", decimals: 1 },
  gust: { how: "max", decimals: 1 },
  liftedIndex: { how: "min", decimals: 1 },
} as const satisfies Partial<Record<NumericMember, { how: Reduce; decimals: number }>>;

export type DailyMember = keyof typeof DAILY_REDUCTIONS;

const REDUCTIONS = Object.entries(DAILY_REDUCTIONS) as [DailyMember, { how: Reduce; decimals: number }][];

export interface DailyTable {
  days: DayRange[];
  /** One value per day, rounded for output (NaN = null). */
  columns: Record<DailyMember, number[]>;
}

/** The reduction of a column over [from, to), NaN values left out; NaN when none is left. */
function reduce(column: readonly number[], from: number, to: number, how: Reduce): number {
  if (how === "chance") return chance(column, from, to);
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

/** The chance of precipitation over the slot probabilities [from, to), percent (NaN when no slot has one). */
function chance(probability: readonly number[], from: number, to: number): number {
  const known: number[] = [];
  for (let i = from; i < to; i++) if (probability[i] === probability[i]) known.push(probability[i]!);
  return dailyProbability(known);
}

/** Every day's members from the slot table. */
export function dailyTable(t: SlotTable): DailyTable {
  const days = daysOf(t);
  const columns = {} as Record<DailyMember, number[]>;
  for (const [member, { how, decimals }] of REDUCTIONS) {
    const column = numbers(days.length, 0);
    for (let d = 0; d < days.length; d++) column[d] = roundTo(reduce(t.columns[member], days[d]!.from, days[d]!.to, how), decimals);
    columns[member] = column;
  }
  return { days, columns };
}
