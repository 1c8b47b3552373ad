/**
 * Comparison of our decoding with the ecCodes 2.28 reference lines (`grib_get` keys,
 * `grib_get_data` samples and statistics; see the reference README in the shared data).
 *
 * Tolerance for a value v: half the packing precision (0.5 * 2^E * 10^-D, the criterion)
 * plus two roundings that are not decoding errors: ecCodes printed the values with 7 significant
 * digits (101315.56 appears as 101315.6), and we return float32 (relative 2^-24).
 */
import { readFileSync } from "node:fs";
import type { GribField } from "../../../pipeline/grib/types.ts";

export interface EccodesSample {
  index: number;
  lat: number;
  lon: number;
  value: number | null;
}

export interface EccodesLine {
  message: number;
  edition: number;
  shortName: string;
  stepRange: string | number;
  startStep: number;
  endStep: number;
  Ni: number;
  Nj: number;
  numberOfDataPoints: number;
  numberOfMissing: number;
  packingType: string;
  discipline?: number;
  parameterCategory?: number;
  parameterNumber?: number;
  indicatorOfParameter?: number;
  table2Version?: number;
  stats: { count: number; missing: number; min: number; max: number; mean: number };
  samples: EccodesSample[];
}

export function readEccodesLines(path: string): EccodesLine[] {
  return readFileSync(path, "utf8").trim().split("\n").map((line) => JSON.parse(line) as EccodesLine);
}

export function tolerance(field: GribField, reference: number): number {
  const magnitude = Math.abs(reference);
  const printed = magnitude === 0 ? 0 : 0.5 * 10 ** (Math.floor(Math.log10(magnitude)) - 6);
  return field.halfPrecision + printed + magnitude * 2 ** -24;
}

/** Problems found comparing decoded values with one reference line; empty when all agree. */
export function compareWithEccodes(field: GribField, values: Float32Array, ref: EccodesLine): string[] {
  const problems: string[] = [];
  if (values.length !== ref.numberOfDataPoints) problems.push(`points ${values.length} vs ${ref.numberOfDataPoints}`);
  let count = 0, missing = 0, sum = 0, min = Infinity, max = -Infinity;
  for (const v of values) {
    if (Number.isNaN(v)) {
      missing++;
    } else {
      count++;
      sum += v;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  if (count !== ref.stats.count || missing !== ref.stats.missing) problems.push(`count/missing ${count}/${missing} vs ${ref.stats.count}/${ref.stats.missing}`);
  if (count > 0) {
    for (const [name, ours, theirs] of [["min", min, ref.stats.min], ["max", max, ref.stats.max], ["mean", sum / count, ref.stats.mean]] as const) {
      if (Math.abs(ours - theirs) > tolerance(field, theirs)) problems.push(`${name} ${ours} vs ${theirs}`);
    }
  }
  for (const s of ref.samples) {
    const v = values[s.index]!;
    if (s.value === null) {
      if (!Number.isNaN(v)) problems.push(`point ${s.index}: ${v} vs missing`);
    } else if (!(Math.abs(v - s.value) <= tolerance(field, s.value))) {
      problems.push(`point ${s.index}: ${v} vs ${s.value}`);
    }
  }
  return problems;
}

/** Problems in the scanned metadata against the reference keys. */
export function compareMetadata(field: GribField, ref: EccodesLine): string[] {
  const problems: string[] = [];
  if (field.edition !== ref.edition) problems.push(`edition ${field.edition} vs ${ref.edition}`);
  if (field.numberOfPoints !== ref.numberOfDataPoints) problems.push(`points ${field.numberOfPoints} vs ${ref.numberOfDataPoints}`);
  if (field.startHour !== ref.startStep || field.endHour !== ref.endStep) problems.push(`step ${field.startHour}-${field.endHour} vs ${ref.startStep}-${ref.endStep}`);
  if (field.grid.ni !== ref.Ni || field.grid.nj !== ref.Nj) problems.push(`grid ${field.grid.ni}x${field.grid.nj} vs ${ref.Ni}x${ref.Nj}`);
  if (ref.edition === 2) {
    if (field.discipline !== ref.discipline || field.category !== ref.parameterCategory || field.number !== ref.parameterNumber) {
      problems.push(`parameter ${field.discipline}.${field.category}.${field.number} vs ${ref.discipline}.${ref.parameterCategory}.${ref.parameterNumber}`);
    }
  } else if (field.number !== ref.indicatorOfParameter || field.category !== ref.table2Version) {
    problems.push(`parameter ${field.category}/${field.number} vs ${ref.table2Version}/${ref.indicatorOfParameter}`);
  }
  return problems;
}
