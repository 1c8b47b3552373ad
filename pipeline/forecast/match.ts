/** Which model variable a GRIB field (or an inventory line) is. */
import type { GribField } from "../grib/types.ts";
import type { InventoryEntry } from "./inventory.ts";
import type { ModelVariable } from "./models/types.ts";

function sameLevel(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
}

/** True when the field is this variable: parameter, level, statistic and time shape all agree. */
export function fieldMatches(v: ModelVariable, f: GribField): boolean {
  const isWindow = f.endHour > f.startHour;
  if ((v.aggregation === "instant") === isWindow) return false;
  if (f.edition === 2) {
    const s = v.grib2;
    return (
      s !== undefined &&
      f.discipline === s.discipline &&
      f.category === s.category &&
      f.number === s.number &&
      f.levelType === s.levelType &&
      sameLevel(f.levelValue, s.levelValue) &&
      (s.statistics === undefined || s.statistics.includes(f.statistic))
    );
  }
  const s = v.grib1;
  return s !== undefined && f.number === s.parameter && f.levelType === s.levelType && sameLevel(f.levelValue, s.levelValue);
}

/** The variable of a field, or undefined. */
export function variableOfField(variables: readonly ModelVariable[], f: GribField): number | undefined {
  const k = variables.findIndex((v) => fieldMatches(v, f));
  return k < 0 ? undefined : k;
}

/** Pre-selection from an .idx line: name and level agree (the fetched message is then checked with `fieldMatches`). */
export function entryWanted(variables: readonly ModelVariable[], e: InventoryEntry): boolean {
  return variables.some((v) => v.inventory.name === e.name && v.inventory.level === e.level);
}
