/**
 * The daily variables of /v1/forecast we compute honestly: aggregates over one local day of the
 * same slot values the hourly section gives, and the sun's times (the administrative
 * description's NOAA algorithm). A day is aggregated only when the run covers all of it
 * (dailyValue); every other name Open-Meteo knows answers null.
 *
 * As Open-Meteo does (Sources/App/Helper/GenericDailyCalculator.swift), a day aggregates the
 * values stamped 00:00 to 23:xx local: sums add each stamp's window (the hour, or the model step,
 * before it), so a day's precipitation_sum equals the sum of that day's hourly precipitation.
 */
import { Aggregation } from "@openmeteo/sdk/aggregation.js";
import { Variable } from "@openmeteo/sdk/variable.js";
import { windDirection } from "../weather/derived/wind.ts";
import type { NumericMember } from "../weather/slot-table.ts";
import { quantityOfUnserved, sdkMetaOf, type SdkMeta } from "./hourly-variables.ts";
import { OPEN_METEO_DAILY_NAMES } from "./known-names.ts";
import { openMeteoError } from "./open-meteo-error.ts";
import type { Quantity } from "./units.ts";

export type DailyAggregate =
  | { kind: "max" | "min" | "mean" | "sum"; column: NumericMember }
  /** Hours of the day whose window had more than 0.001 mm (Open-Meteo's precipitation_hours). */
  | { kind: "wetHours" }
  /** Direction of the vector sum of the day's winds (Open-Meteo's dominantDirection). */
  | { kind: "dominantDirection" }
  | { kind: "sunrise" }
  | { kind: "sunset" }
  | { kind: "daylight" };

/** The aggregates of forecast values (not of the sun's times). */
export type ValueAggregate = Exclude<DailyAggregate, { kind: "sunrise" } | { kind: "sunset" } | { kind: "daylight" }>;

export interface DailyVariable {
  name: string;
  /** `time` for sunrise and sunset (instants, written as the time axis is). */
  quantity: Quantity | "seconds" | "time";
  /** Undefined: Open-Meteo knows the name, we cannot compute it; the values are null. */
  aggregate: DailyAggregate | undefined;
  sdk: SdkMeta;
}

const extremes = (column: NumericMember): Record<string, DailyAggregate> => ({
  max: { kind: "max", column },
  min: { kind: "min", column },
  mean: { kind: "mean", column },
});

/** Base name → quantity and the aggregates of each suffix we compute. */
const FAMILIES: Readonly<Record<string, { quantity: Quantity; aggregates: Record<string, DailyAggregate> }>> = {
  temperature_2m: { quantity: "temperature", aggregates: { max: { kind: "max", column: "max" }, min: { kind: "min", column: "min" }, mean: { kind: "mean", column: "surface" } } },
  relative_humidity_2m: { quantity: "percent", aggregates: extremes("humidity") },
  pressure_msl: { quantity: "pressure", aggregates: extremes("pressure") },
  cloud_cover: { quantity: "percent", aggregates: extremes("cloudTotal") },
  cloudcover: { quantity: "percent", aggregates: extremes("cloudTotal") },
  precipitation_probability: { quantity: "percent", aggregates: extremes("probability") },
  wind_speed_10m: { quantity: "windSpeed", aggregates: extremes("speed") },
  windspeed_10m: { quantity: "windSpeed", aggregates: extremes("speed") },
  wind_gusts_10m: { quantity: "windSpeed", aggregates: extremes("gust") },
  windgusts_10m: { quantity: "windSpeed", aggregates: extremes("gust") },
  precipitation: { quantity: "precipitation", aggregates: { sum: { kind: "sum", column: "precipitation" } } },
  showers: { quantity: "precipitation", aggregates: { sum: { kind: "sum", column: "precipitationConvective" } } },
  wind_direction_10m: { quantity: "direction", aggregates: { dominant: { kind: "dominantDirection" } } },
  winddirection_10m: { quantity: "direction", aggregates: { dominant: { kind: "dominantDirection" } } },
};

const SPECIAL: Readonly<Record<string, Omit<DailyVariable, "name">>> = {
  precipitation_hours: { quantity: "hours", aggregate: { kind: "wetHours" }, sdk: { ...sdkMetaOf("precipitation_hours"), variable: Variable.precipitation_hours } },
  sunrise: { quantity: "time", aggregate: { kind: "sunrise" }, sdk: sdkMetaOf("sunrise") },
  sunset: { quantity: "time", aggregate: { kind: "sunset" }, sdk: sdkMetaOf("sunset") },
  daylight_duration: { quantity: "seconds", aggregate: { kind: "daylight" }, sdk: sdkMetaOf("daylight_duration") },
};

const AGGREGATION_OF: Readonly<Record<string, Aggregation>> = { max: Aggregation.maximum, min: Aggregation.minimum, mean: Aggregation.mean, sum: Aggregation.sum, dominant: Aggregation.dominant };
const SUFFIX = /^(.*)_(max|min|mean|sum|dominant)$/;
const KNOWN = new Set(OPEN_METEO_DAILY_NAMES);

/** The daily names computed here (docs/compatibility.md lists them). */
export const SERVED_DAILY_NAMES: readonly string[] = [
  ...Object.entries(FAMILIES)
    .filter(([base]) => !/^(cloudcover|windspeed|windgusts|winddirection)/.test(base))
    .flatMap(([base, f]) => Object.keys(f.aggregates).map((suffix) => `${base}_${suffix}`)),
  ...Object.keys(SPECIAL),
];

/** One requested daily name, resolved; a name Open-Meteo does not know is a 400. */
export function dailyVariable(name: string): DailyVariable {
  const special = SPECIAL[name];
  if (special) return { name, ...special };
  const m = SUFFIX.exec(name);
  const family = m ? FAMILIES[m[1]!] : undefined;
  const aggregate = family?.aggregates[m![2]!];
  if (m && family && aggregate) {
    return { name, quantity: family.quantity, aggregate, sdk: sdkMetaOf(canonicalBase(m[1]!), AGGREGATION_OF[m[2]!]) };
  }
  if (!KNOWN.has(name)) throw openMeteoError(`Cannot initialize ForecastVariableDaily from invalid String value ${name} for key daily`);
  const base = m ? m[1]! : name;
  return { name, quantity: family?.quantity ?? quantityOfUnserved(base), aggregate: undefined, sdk: sdkMetaOf(canonicalBase(base), m ? AGGREGATION_OF[m[2]!] : Aggregation.none) };
}

/** The current spelling of a base name (windspeed_10m → wind_speed_10m) for the SDK's variable code. */
function canonicalBase(base: string): string {
  return base.replace(/^windspeed/, "wind_speed").replace(/^windgusts/, "wind_gusts").replace(/^winddirection/, "wind_direction").replace(/^cloudcover/, "cloud_cover");
}

/**
 * The aggregate of slots [from, to) of one day (values in our units, NaN = missing): NaN when a
 * value is missing. `windowHours` gives each slot's window length (for wetHours).
 */
export function aggregateDay(a: ValueAggregate, columns: Record<NumericMember, readonly number[]>, from: number, to: number, windowHours: (slot: number) => number): number {
  switch (a.kind) {
    case "max":
    case "min":
    case "mean":
    case "sum": {
      const c = columns[a.column];
      let acc = a.kind === "max" ? -Infinity : a.kind === "min" ? Infinity : 0;
      for (let i = from; i < to; i++) {
        const x = c[i]!;
        if (x !== x) return NaN;
        acc = a.kind === "max" ? Math.max(acc, x) : a.kind === "min" ? Math.min(acc, x) : acc + x;
      }
      return a.kind === "mean" ? acc / (to - from) : acc;
    }
    case "wetHours": {
      let hours = 0;
      for (let i = from; i < to; i++) {
        const x = columns.precipitation[i]!;
        if (x !== x) return NaN;
        if (x > 0.001) hours += windowHours(i);
      }
      return hours;
    }
    case "dominantDirection": {
      // Vector sum of the winds (u = -s sin d, v = -s cos d), as Open-Meteo sums them.
      let u = 0;
      let v = 0;
      for (let i = from; i < to; i++) {
        const s = columns.speed[i]!;
        const d = (columns.direction[i]! * Math.PI) / 180;
        if (s !== s || d !== d) return NaN;
        u -= s * Math.sin(d);
        v -= s * Math.cos(d);
      }
      return windDirection(u, v);
    }
  }
}
