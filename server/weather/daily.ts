/**
 * The daily section of /weather/id: one object per local date of the hourly section, aggregated
 * from that date's slots exactly as they are on the wire (so a reader can recompute every daily
 * value from the hourly section):
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
import { temperatureColor } from "./derived/temperature-colors.ts";
import { rounded } from "./slot-builder.ts";
import type { ColoredMeasure, Measure, WeatherDays, WeatherSlot } from "./wire-types.ts";

export interface DailyWeather {
  clouds: { total: Measure; high: Measure; middle: Measure; low: Measure; convective: Measure; boundary: Measure };
  precipitation: { total: Measure; convective: Measure; probability: Measure };
  temperature: { min: ColoredMeasure; max: ColoredMeasure };
  wind: { speed: Measure; gust: Measure };
  liftedIndex: Measure;
}

type Pick = (s: WeatherSlot) => Measure;

function values(slots: readonly WeatherSlot[], pick: Pick): number[] {
  const out: number[] = [];
  for (const s of slots) {
    const v = pick(s).value;
    if (v !== null) out.push(v);
  }
  return out;
}

const mean = (xs: number[]): number => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
const sum = (xs: number[]): number => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0));
const max = (xs: number[]): number => (xs.length === 0 ? NaN : Math.max(...xs));
const min = (xs: number[]): number => (xs.length === 0 ? NaN : Math.min(...xs));

function colored(x: number): ColoredMeasure {
  const value = rounded(x, 1);
  return { value, unit: "°C", color: value === null ? null : temperatureColor(value) };
}

/** The aggregate of one date's slots. */
export function aggregateDay(slots: readonly WeatherSlot[]): DailyWeather {
  const cloud = (pick: Pick): Measure => ({ value: rounded(mean(values(slots, pick)), 0), unit: "%" });
  return {
    clouds: {
      total: cloud((s) => s.clouds.total),
      high: cloud((s) => s.clouds.high),
      middle: cloud((s) => s.clouds.middle),
      low: cloud((s) => s.clouds.low),
      convective: cloud((s) => s.clouds.convective),
      boundary: cloud((s) => s.clouds.boundary),
    },
    precipitation: {
      total: { value: rounded(sum(values(slots, (s) => s.precipitation.total)), 2), unit: "mm" },
      convective: { value: rounded(sum(values(slots, (s) => s.precipitation.convective)), 2), unit: "mm" },
      probability: { value: rounded(dailyProbability(values(slots, (s) => s.precipitation.probability)), 0), unit: "%" },
    },
    temperature: {
      min: colored(min(values(slots, (s) => s.temperature.min))),
      max: colored(max(values(slots, (s) => s.temperature.max))),
    },
    wind: {
      speed: { value: rounded(max(values(slots, (s) => s.wind.speed)), 1), unit: "m/s" },
      gust: { value: rounded(max(values(slots, (s) => s.wind.gust)), 1), unit: "m/s" },
    },
    liftedIndex: { value: rounded(min(values(slots, (s) => s.liftedIndex)), 1), unit: "K" },
  };
}

/** `[{date: daily}]`, one per date of the hourly section, in its order. */
export function dailySection(hourly: WeatherDays): Record<string, DailyWeather>[] {
  return hourly.map((day) => {
    const [date, slots] = Object.entries(day)[0]!;
    return { [date]: aggregateDay(slots.map((s) => Object.values(s)[0]!)) };
  });
}
