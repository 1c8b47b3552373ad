/**
 * METAR weather groups (code table 4678) to the nearest WMO present-weather code ww (4677), so that
 * `wid` means the same for METAR and SYNOP. As in SYNOP practice, the highest applicable ww wins
 * when several groups are reported. UP (unknown precipitation) and a lone NSW have no ww.
 */
import type { WeatherGroup } from "./types.ts";

const PRECIP = new Set(["DZ", "RA", "SN", "SG", "IC", "PL", "GR", "GS", "UP"]);

function bySeverity(w: WeatherGroup, light: number, moderate: number, heavy: number): number {
  return w.intensity === "light" ? light : w.intensity === "heavy" ? heavy : moderate;
}

function recentWw(w: WeatherGroup): number | undefined {
  const p = w.phenomena;
  const has = (x: string): boolean => p.includes(x);
  if (w.descriptor === "TS") return 29;
  if (has("FG")) return 28;
  if (w.descriptor === "SH") return has("GR") || has("GS") ? 27 : has("SN") ? 26 : 25;
  if (w.descriptor === "FZ") return 24;
  if (has("RA") && has("SN")) return 23;
  if (has("SN")) return 22;
  if (has("RA")) return 21;
  if (has("DZ") || has("SG")) return 20;
  return undefined;
}

/** ww of one present-weather group, or undefined when no ww fits. */
export function wwOfGroup(w: WeatherGroup): number | undefined {
  if (w.recent) return recentWw(w);
  const p = w.phenomena;
  const has = (x: string): boolean => p.includes(x);
  const d = w.descriptor;
  if (w.vicinity) {
    if (d === "TS") return 17;
    if (has("FC")) return 19;
    if (d === "SH") return 16;
    if (has("FG")) return 40;
    if (has("PO")) return 8;
    if (has("SS") || has("DS")) return 9;
    if (d === "BL") return 7;
    if (has("VA")) return 4;
    return undefined;
  }
  if (has("FC")) return 19;
  if (d === "TS") {
    const precip = p.some((x) => PRECIP.has(x));
    if (has("SS") || has("DS")) return 98;
    if (!precip) return 17;
    const hail = has("GR") || has("GS");
    return w.intensity === "heavy" ? (hail ? 99 : 97) : hail ? 96 : 95;
  }
  if (has("SQ")) return 18;
  if (has("GR")) return w.intensity === "light" ? 89 : 90;
  if (has("GS")) return w.intensity === "light" ? 87 : 88;
  if (d === "SH") {
    if (has("RA") && has("SN")) return w.intensity === "light" ? 83 : 84;
    if (has("SN") || has("SG")) return w.intensity === "light" ? 85 : 86;
    if (has("PL")) return w.intensity === "light" ? 87 : 88;
    return bySeverity(w, 80, 81, 82);
  }
  if (d === "FZ") {
    if (has("DZ")) return w.intensity === "light" ? 56 : 57;
    if (has("RA")) return w.intensity === "light" ? 66 : 67;
    if (has("FG")) return 49;
  }
  if (d === "BL" || d === "DR") {
    if (has("SN")) return d === "BL" ? (w.intensity === "heavy" ? 39 : 38) : w.intensity === "heavy" ? 37 : 36;
    if (has("DU") || has("SA") || has("PY")) return 7;
  }
  if (has("RA") && has("SN")) return w.intensity === "light" ? 68 : 69;
  if (has("DZ") && has("RA")) return w.intensity === "light" ? 58 : 59;
  if (has("DZ")) return bySeverity(w, 51, 53, 55);
  if (has("RA")) return bySeverity(w, 61, 63, 65);
  if (has("SN")) return bySeverity(w, 71, 73, 75);
  if (has("PL")) return 79;
  if (has("SG")) return 77;
  if (has("IC")) return 76;
  if (has("SS") || has("DS")) return w.intensity === "heavy" ? 34 : 31;
  if (has("PO")) return 8;
  if (has("FG")) {
    if (d === "MI") return 12;
    if (d === "BC" || d === "PR") return 41;
    return 45;
  }
  if (has("BR")) return 10;
  if (has("DU") || has("SA")) return 6;
  if (has("HZ")) return 5;
  if (has("FU") || has("VA")) return 4;
  if (has("PY")) return 7;
  return undefined;
}

/** The highest ww over all present and recent weather groups. */
export function wwOfReport(groups: readonly WeatherGroup[]): number | undefined {
  let best: number | undefined;
  for (const g of groups) {
    const ww = wwOfGroup(g);
    if (ww !== undefined && (best === undefined || ww > best)) best = ww;
  }
  return best;
}
