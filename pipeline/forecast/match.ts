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

/** The first variable entry (alternatives of one name come in order of preference) a field is, or undefined. */
export function variableOfField(variables: readonly ModelVariable[], f: GribField): number | undefined {
  const k = variables.findIndex((v) => fieldMatches(v, f));
  return k < 0 ? undefined : k;
}

/** An inventory line has the time shape of the variable (instant vs window); unknown shapes pass. */
function sameShape(v: ModelVariable, e: InventoryEntry): boolean {
  if (e.startHour === undefined || e.endHour === undefined) return true;
  return (v.aggregation === "instant") === !(e.endHour > e.startHour);
}

/**
 * The inventory lines to fetch: for each variable name, the lines of its first alternative (a
 * domain may list several entries with one name, in order of preference: GFS versions differ)
 * present in this inventory by name, level and time shape. Level names are wgrib2's; an
 * inventory whose level wording differs (wgrib's GRIB1 inventories say "2 m above gnd", "atmos
 * col") is matched on names alone, so that it still yields every candidate: the fetched messages
 * are checked exactly afterwards.
 */
export function selectEntries(variables: readonly ModelVariable[], entries: readonly InventoryEntry[]): InventoryEntry[] {
  const levels = new Set(variables.map((v) => v.inventory.level));
  if (!entries.some((e) => levels.has(e.level))) {
    const names = new Set(variables.map((v) => v.inventory.name));
    return entries.filter((e) => names.has(e.name));
  }
  const chosen = new Set<InventoryEntry>();
  const done = new Set<string>();
  for (const v of variables) {
    if (done.has(v.name)) continue;
    const lines = entries.filter((e) => e.name === v.inventory.name && e.level === v.inventory.level && sameShape(v, e));
    if (lines.length === 0) continue;
    done.add(v.name);
    for (const e of lines) chosen.add(e);
  }
  return entries.filter((e) => chosen.has(e));
}
