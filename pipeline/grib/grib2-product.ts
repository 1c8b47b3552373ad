/**
 * GRIB2 section 4 (product definition): parameter, fixed surfaces, forecast time and, for the
 * statistical templates, the processed interval. Templates 4.0 to 4.15 share the layout of 4.0
 * for their first 34 octets; the interval templates add the end of the overall time interval and
 * the time ranges at a template-specific offset: 4.8 (statistics over an interval), 4.9
 * (probability), 4.10 (percentile), 4.11 (ensemble member), 4.12 (derived from an ensemble).
 * Other templates keep their parameter but get level type 255 and NaN hours (their values still
 * decode: the packing does not depend on the product template).
 */
import { s32, s8, u16, u32, u8 } from "./bytes.ts";
import type { StatisticalProcess } from "./types.ts";

export interface Grib2Product {
  template: number;
  category: number;
  number: number;
  levelType: number;
  levelValue: number;
  secondLevelType?: number;
  secondLevelValue?: number;
  startHour: number;
  endHour: number;
  statistic: StatisticalProcess;
  ensemble?: { type: number; perturbation: number; members: number };
}

/** Code table 4.4 units in hours; months, years and longer have no fixed length in hours. */
const UNIT_HOURS: Readonly<Record<number, number>> = { 0: 1 / 60, 1: 1, 2: 24, 10: 3, 11: 6, 12: 12, 13: 1 / 3600 };

export function unitHours(unit: number): number {
  return UNIT_HOURS[unit] ?? NaN;
}

/** Code table 4.10 (type of statistical processing). */
export function statisticOf(code: number): StatisticalProcess {
  switch (code) {
    case 0: return "average";
    case 1: return "accumulation";
    case 2: return "maximum";
    case 3: return "minimum";
    default: return "other";
  }
}

/** Octet offset (0-based) of "year of end of overall time interval" per interval template. */
const INTERVAL_START: Readonly<Record<number, number>> = { 8: 34, 9: 47, 10: 35, 11: 37, 12: 36 };
/** Point-in-time templates with the 4.0 prefix: ensemble, derived, probability, percentile, spatial. */
const POINT_TEMPLATES = new Set([0, 1, 2, 3, 4, 5, 6, 7, 15]);

/** A fixed surface value: scale factor (signed octet) and scaled value (signed 4 octets). */
function surfaceValue(b: Uint8Array, o: number): number {
  const scaleByte = u8(b, o);
  const raw = u32(b, o + 1);
  if (scaleByte === 0xff || raw === 0xffffffff) return 0;
  const value = s32(b, o + 1) / 10 ** s8(b, o);
  // 10^-scale is inexact in binary; keep the decimal the producer meant (2e-06, 0.1).
  return Number(value.toPrecision(12));
}

export function readGrib2Product(b: Uint8Array, sec: number, referenceTime: Date): Grib2Product {
  const template = u16(b, sec + 7);
  const category = u8(b, sec + 9);
  const number = u8(b, sec + 10);
  const known = POINT_TEMPLATES.has(template) || INTERVAL_START[template] !== undefined;
  if (!known) return { template, category, number, levelType: 255, levelValue: 0, startHour: NaN, endHour: NaN, statistic: "other" };
  const timeUnit = u8(b, sec + 17);
  const forecastTime = s32(b, sec + 18);
  const startHour = forecastTime * unitHours(timeUnit);
  const levelType = u8(b, sec + 22);
  const levelValue = surfaceValue(b, sec + 23);
  const type2 = u8(b, sec + 28);
  const product: Grib2Product = {
    template, category, number, levelType, levelValue, startHour, endHour: startHour, statistic: "instant",
  };
  if (type2 !== 255) {
    product.secondLevelType = type2;
    product.secondLevelValue = surfaceValue(b, sec + 29);
  }
  if (template === 1 || template === 11) {
    product.ensemble = { type: u8(b, sec + 34), perturbation: u8(b, sec + 35), members: u8(b, sec + 36) };
  }
  const end = INTERVAL_START[template];
  if (end !== undefined) {
    const o = sec + end;
    const endTime = Date.UTC(u16(b, o), u8(b, o + 2) - 1, u8(b, o + 3), u8(b, o + 4), u8(b, o + 5), u8(b, o + 6));
    // The first time range specification (octets o+12..) is the outermost statistical process.
    product.statistic = statisticOf(u8(b, o + 12));
    const rangeUnit = u8(b, o + 14);
    const rangeLength = u32(b, o + 15);
    // ecCodes and wgrib2 take the end as forecast time + length of the outermost range; some
    // producers (NDFD) write an end-of-interval time that disagrees with it. The end time is the
    // fallback for units without a fixed length in hours (months, years).
    const fromLength = startHour + rangeLength * unitHours(rangeUnit);
    product.endHour = Number.isFinite(fromLength) ? fromLength : (endTime - referenceTime.getTime()) / 3_600_000;
  }
  return product;
}
