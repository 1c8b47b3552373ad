/**
 * One weather time slot from a point forecast: unit conversion, the 2 m temperature corrected to
 * the point's height, wind from u and v, and the derived members (felt temperature, heat-index
 * category, inversion flag, colours). Every member is always present; a quantity the model does
 * not provide has `value: null` with its unit. The member definitions are in `members.ts`.
 */
import { feltTemperatureC, heatIndexC } from "./derived/felt.ts";
import { heatIndexCategory } from "./derived/heat-category.ts";
import { temperatureColor } from "./derived/temperature-colors.ts";
import { kelvinToC, paToHpa } from "./derived/units.ts";
import { directionIcon, windDirection, windSpeed } from "./derived/wind.ts";
import type { PointForecast } from "./point-series.ts";
import type { CloudMeasure, ColoredMeasure, Measure, WeatherSlot } from "./wire-types.ts";

/** Standard atmosphere lapse rate, K per metre (ICAO: 6.5 K/km in the troposphere). */
export const LAPSE_RATE_K_PER_M = 0.0065;
/** The string naming the isotherm whose height `isotherm` gives. */
export const ISOTHERM_NAME = "0 °C";
/** From this heat index (°C) up the heat branch of the felt temperature and its category apply. */
const HEAT_BRANCH_MIN_C = 26.7;

/** Rounds to `decimals`, halves away from zero, never −0; NaN → null. */
export function rounded(x: number, decimals: number): number | null {
  if (x !== x || !Number.isFinite(x)) return null;
  const f = decimals === 0 ? 1 : decimals === 1 ? 10 : 100;
  const r = Math.round(Math.abs(x) * f) / f;
  return r === 0 ? 0 : x < 0 ? -r : r;
}

const measure = (x: number, decimals: number, unit: string): Measure => ({ value: rounded(x, decimals), unit });
const cloud = (x: number): CloudMeasure => ({ value: rounded(x, 0), unit: "%" });

function colored(celsius: number): ColoredMeasure {
  const value = rounded(celsius, 1);
  return { value, unit: "°C", color: value === null ? null : temperatureColor(value) };
}

/** ISA surface pressure (Pa) at height h (m) from the mean-sea-level pressure (barometric formula). */
export function surfacePressurePa(mslPa: number, heightM: number): number {
  return mslPa * Math.pow(1 - (LAPSE_RATE_K_PER_M * heightM) / 288.15, 5.25588);
}

/**
 * 1 when the lowest stored pressure level above the model's surface (925 hPa, else 850 hPa) is
 * warmer than the model's 2 m air; 0 otherwise, also when no stored level lies above the surface
 * (high plateaus) or a value is missing. The surface pressure comes from the mean-sea-level
 * pressure and the model's surface height by the standard atmosphere.
 */
export function inversionFlag(t2mK: number, t925K: number, t850K: number, mslPa: number, surfaceHeightM: number): 0 | 1 {
  const height = surfaceHeightM === surfaceHeightM ? surfaceHeightM : 0;
  const ps = mslPa === mslPa ? surfacePressurePa(mslPa, height) : NaN;
  const level = ps > 92500 ? t925K : ps > 85000 ? t850K : NaN;
  return level === level && t2mK === t2mK && level > t2mK ? 1 : 0;
}

export interface SlotContext {
  /** Added to every 2 m temperature (K): the lapse-rate correction to the point's height, 0 when none. */
  heightCorrectionK: number;
  /** Observed cloud cover (percent) and station id near the point and slot, when there is one. */
  local?: { station: string; cloudCover?: number };
}

/** The slot of step `k` of the point forecast. */
export function buildSlot(f: PointForecast, k: number, ctx: SlotContext): WeatherSlot {
  const v = f.values;
  const t2m = v.temperature_2m[k]!;
  const tC = kelvinToC(t2m) + ctx.heightCorrectionK;
  const u = v.wind_u_10m[k]!;
  const w = v.wind_v_10m[k]!;
  const speed = windSpeed(u, w);
  const rh = v.relative_humidity_2m[k]!;
  // TMAX/TMIN over the window where the model has them; else the 2 m temperature at the window's
  // two ends (the previous step and this one; at a run's first step, this one).
  let maxK = v.temperature_2m_max[k]!;
  let minK = v.temperature_2m_min[k]!;
  if (!f.run.hasVariable("temperature_2m_max") || !f.run.hasVariable("temperature_2m_min")) {
    const before = k > 0 ? v.temperature_2m[k - 1]! : t2m;
    const ends = before === before ? [before, t2m] : [t2m];
    maxK = Math.max(...ends);
    minK = Math.min(...ends);
  }
  const direction = speed === speed ? windDirection(u, w) : NaN;
  const surface = colored(tC);
  const heatBranch = tC >= HEAT_BRANCH_MIN_C && rh === rh;
  const slot: WeatherSlot = {
    clouds: {
      total: cloud(v.cloud_cover[k]!),
      high: cloud(v.cloud_cover_high[k]!),
      middle: cloud(v.cloud_cover_mid[k]!),
      low: cloud(v.cloud_cover_low[k]!),
      convective: cloud(v.cloud_cover_convective[k]!),
      boundary: cloud(v.cloud_cover_boundary_layer[k]!),
    },
    reltiveHumidity: measure(rh, 0, "%"),
    liftedIndex: measure(v.lifted_index[k]!, 1, "K"),
    isotherm: { ...measure(v.freezing_level_height[k]!, 0, "m"), temperature: ISOTHERM_NAME },
    HPBL: measure(v.boundary_layer_height[k]!, 0, "m"),
    precipitation: {
      total: measure(v.precipitation[k]!, 2, "mm"),
      convective: measure(v.precipitation_convective[k]!, 2, "mm"),
      probability: measure(f.probability[k]!, 0, "%"),
    },
    temperature: {
      isInversion: inversionFlag(t2m, v.temperature_925hPa[k]!, v.temperature_850hPa[k]!, v.pressure_msl[k]!, f.modelHeight),
      surface,
      min: colored(kelvinToC(minK) + ctx.heightCorrectionK),
      max: colored(kelvinToC(maxK) + ctx.heightCorrectionK),
      felt: colored(feltTemperatureC(tC, speed, rh)),
    },
    wind: {
      speed: measure(speed, 1, "m/s"),
      gust: measure(v.wind_gust[k]!, 1, "m/s"),
      // Whole degrees 0-359: 359.6 rounds to 360, which is north, written 0.
      direction: { value: rounded(direction, 0) === 360 ? 0 : rounded(direction, 0), unit: "°", icon: direction === direction ? directionIcon(direction) : null },
    },
    pressure: { ...measure(paToHpa(v.pressure_msl[k]!), 1, "hPa"), level: "MSL" },
    heatIndex: heatBranch ? heatIndexCategory(heatIndexC(tC, rh)) : "",
  };
  if (ctx.local) {
    slot.temperature.surface.localStation = ctx.local.station;
    if (ctx.local.cloudCover !== undefined) slot.clouds.total.localData = Math.round(ctx.local.cloudCover);
  }
  return slot;
}
