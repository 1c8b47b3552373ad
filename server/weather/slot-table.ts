/**
 * The time slots of an answer as columns: one array per numeric member (already rounded for
 * output; NaN = null), built in one pass over the point's series (the physics of the derived
 * members in slot-physics.ts), then written without intermediate objects by slot-writer.ts (a
 * 7-day hourly answer is ~170 slots of ~45 members each: building and stringifying objects cost
 * several times the read). The members are described once in slot-shape.ts.
 */
import { feltTemperatureC, heatIndexC } from "./derived/felt.ts";
import { heatIndexCategory } from "./derived/heat-category.ts";
import { kelvinToC, paToHpa } from "./derived/units.ts";
import { directionIcon, windDirection, windSpeed } from "./derived/wind.ts";
import { SLOT_VARIABLE_INDEX, type PointForecast, type SlotVariable } from "./point-series.ts";
import { numbers } from "./numbers.ts";
import { HEAT_BRANCH_MIN_C, inversionFlag } from "./slot-physics.ts";
import type { TimeSlot } from "./time-slots.ts";

/** Rounds to `decimals` (0-2), halves away from zero, never −0; NaN stays NaN (null on the wire). */
export function roundTo(x: number, decimals: number): number {
  if (x !== x || !Number.isFinite(x)) return NaN;
  const f = decimals === 0 ? 1 : decimals === 1 ? 10 : 100;
  const r = Math.round(Math.abs(x) * f) / f;
  return r === 0 ? 0 : x < 0 ? -r : r;
}

/** The numeric members, each a column of rounded values (NaN = null). */
export const NUMERIC_MEMBERS = [
  "cloudTotal", "cloudHigh", "cloudMiddle", "cloudLow", "cloudConvective", "cloudBoundary",
  "humidity", "liftedIndex", "isotherm", "hpbl", "precipitation", "precipitationConvective", "probability",
  "surface", "min", "max", "felt", "speed", "gust", "direction", "pressure",
] as const;
export type NumericMember = (typeof NUMERIC_MEMBERS)[number];

/** The columns are plain arrays (numbers.ts): an answer has 25 of them. */
export interface SlotTable {
  slots: readonly TimeSlot[];
  columns: Record<NumericMember, number[]>;
  /** Direction icon, -1 = null. */
  icon: number[];
  /** The inversion flag, 0 or 1. */
  inversion: number[];
  heatIndex: string[];
  /** Observed cover of a nearby station (percent, NaN = none) and its id. */
  localCloud: number[];
  localStation: (string | undefined)[];
}

/** Slots [from, to) of one local date. */
export interface DayRange {
  date: string;
  from: number;
  to: number;
}

export interface SlotContext {
  /** Added to every 2 m temperature (K): the lapse-rate correction to the point's height, 0 when none. */
  heightCorrectionK: number;
  /** Observed cloud cover (percent) and station near the point at a slot's valid time, if any. */
  local?: (validMs: number) => { station: string; cloudCover?: number } | undefined;
}

/** Every slot's members from the point forecast. */
export function buildSlotTable(f: PointForecast, slots: readonly TimeSlot[], ctx: SlotContext): SlotTable {
  const n = slots.length;
  const columns = {} as Record<NumericMember, number[]>;
  for (const m of NUMERIC_MEMBERS) columns[m] = numbers(n, 0);
  const icon = numbers(n, -1);
  const inversion = numbers(n, 0);
  const heatIndex: string[] = new Array<string>(n);
  const localCloud = numbers(n, NaN);
  const localStation: (string | undefined)[] = new Array<string | undefined>(n);
  // Variable x at step k is s[X + k], X its series' start (point-series.ts PointForecast.values).
  const s = f.values;
  const at = (name: SlotVariable): number => SLOT_VARIABLE_INDEX[name] * f.nSteps;
  const T2M = at("temperature_2m");
  const T2M_MAX = at("temperature_2m_max");
  const T2M_MIN = at("temperature_2m_min");
  const RH = at("relative_humidity_2m");
  const U = at("wind_u_10m");
  const V = at("wind_v_10m");
  const GUST = at("wind_gust");
  const MSL = at("pressure_msl");
  const PRECIPITATION = at("precipitation");
  const PRECIPITATION_CONVECTIVE = at("precipitation_convective");
  const CLOUD = at("cloud_cover");
  const CLOUD_HIGH = at("cloud_cover_high");
  const CLOUD_MID = at("cloud_cover_mid");
  const CLOUD_LOW = at("cloud_cover_low");
  const CLOUD_CONVECTIVE = at("cloud_cover_convective");
  const CLOUD_BOUNDARY = at("cloud_cover_boundary_layer");
  const LIFTED_INDEX = at("lifted_index");
  const HPBL = at("boundary_layer_height");
  const FREEZING_LEVEL = at("freezing_level_height");
  const T925 = at("temperature_925hPa");
  const T850 = at("temperature_850hPa");
  const hasExtremes = f.run.hasVariable("temperature_2m_max") && f.run.hasVariable("temperature_2m_min");
  const c = columns;
  for (let n2 = 0; n2 < n; n2++) {
    const k = slots[n2]!.step;
    const t2m = s[T2M + k]!;
    const tC = kelvinToC(t2m) + ctx.heightCorrectionK;
    const u = s[U + k]!;
    const w = s[V + k]!;
    const speed = windSpeed(u, w);
    const rh = s[RH + k]!;
    // TMAX/TMIN over the window where the model has them; else the 2 m temperature at the window's
    // two ends (the previous step and this one; at a run's first step, this one).
    let maxK = s[T2M_MAX + k]!;
    let minK = s[T2M_MIN + k]!;
    if (!hasExtremes) {
      const before = k > 0 ? s[T2M + k - 1]! : t2m;
      maxK = before === before ? Math.max(before, t2m) : t2m;
      minK = before === before ? Math.min(before, t2m) : t2m;
    }
    c.cloudTotal[n2] = roundTo(s[CLOUD + k]!, 0);
    c.cloudHigh[n2] = roundTo(s[CLOUD_HIGH + k]!, 0);
    c.cloudMiddle[n2] = roundTo(s[CLOUD_MID + k]!, 0);
    c.cloudLow[n2] = roundTo(s[CLOUD_LOW + k]!, 0);
    c.cloudConvective[n2] = roundTo(s[CLOUD_CONVECTIVE + k]!, 0);
    c.cloudBoundary[n2] = roundTo(s[CLOUD_BOUNDARY + k]!, 0);
    c.humidity[n2] = roundTo(rh, 0);
    c.liftedIndex[n2] = roundTo(s[LIFTED_INDEX + k]!, 1);
    c.isotherm[n2] = roundTo(s[FREEZING_LEVEL + k]!, 0);
    c.hpbl[n2] = roundTo(s[HPBL + k]!, 0);
    c.precipitation[n2] = roundTo(s[PRECIPITATION + k]!, 2);
    c.precipitationConvective[n2] = roundTo(s[PRECIPITATION_CONVECTIVE + k]!, 2);
    c.probability[n2] = roundTo(f.probability[k]!, 0);
    c.surface[n2] = roundTo(tC, 1);
    c.min[n2] = roundTo(kelvinToC(minK) + ctx.heightCorrectionK, 1);
    c.max[n2] = roundTo(kelvinToC(maxK) + ctx.heightCorrectionK, 1);
    c.felt[n2] = roundTo(feltTemperatureC(tC, speed, rh), 1);
    c.speed[n2] = roundTo(speed, 1);
    c.gust[n2] = roundTo(s[GUST + k]!, 1);
    // Whole degrees 0-359: 359.6 rounds to 360, which is north, written 0.
    const direction = speed === speed ? windDirection(u, w) : NaN;
    const dir = roundTo(direction, 0);
    c.direction[n2] = dir === 360 ? 0 : dir;
    icon[n2] = direction === direction ? directionIcon(direction) : -1;
    c.pressure[n2] = roundTo(paToHpa(s[MSL + k]!), 1);
    inversion[n2] = inversionFlag(t2m, s[T925 + k]!, s[T850 + k]!, s[MSL + k]!, f.modelHeight);
    heatIndex[n2] = tC >= HEAT_BRANCH_MIN_C && rh === rh ? heatIndexCategory(heatIndexC(tC, rh)) : "";
    const local = ctx.local?.(slots[n2]!.validMs);
    if (local) {
      localStation[n2] = local.station;
      if (local.cloudCover !== undefined) localCloud[n2] = Math.round(local.cloudCover);
    }
  }
  return { slots, columns, icon, inversion, heatIndex, localCloud, localStation };
}

/** The table's day ranges, computed once per slot list: the hourly and the daily writer of an answer share them. */
export function daysOf(t: SlotTable): DayRange[] {
  let days = daysOfSlots.get(t.slots);
  if (days === undefined) {
    days = dayRanges(t.slots);
    daysOfSlots.set(t.slots, days);
  }
  return days;
}

const daysOfSlots = new WeakMap<readonly TimeSlot[], DayRange[]>();

/** Index ranges [from, to) of the slots of each local date, in order. */
export function dayRanges(slots: readonly TimeSlot[]): DayRange[] {
  const out: DayRange[] = [];
  for (let i = 0; i < slots.length; i++) {
    const last = out[out.length - 1];
    if (last && last.date === slots[i]!.date) last.to = i + 1;
    else out.push({ date: slots[i]!.date, from: i, to: i + 1 });
  }
  return out;
}
