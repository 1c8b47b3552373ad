/**
 * Horizontal visibility groups of a METAR: metres (`0800`, `9999`, `9999NDV`), directional
 * (`2000NE`, with or without a prevailing value), statute miles (`10SM`, `1/16SM`, `M1/4SM`,
 * `P6SM`, and `2 1/2SM` split over two groups), kilometres (`20KM`) and CAVOK.
 */
import type { Token } from "../unread.ts";
import { STATUTE_MILE_M } from "./groups.ts";
import type { MetarReport, MetarVisibility } from "./types.ts";

const RE_VIS_M = /^(\d{4})(NDV)?$/;
const RE_VIS_DIR = /^(\d{4})(N|NE|E|SE|S|SW|W|NW)$/;
const RE_VIS_SM = /^([MP])?(?:(\d{1,3})|(\d{1,2})\/(\d{1,2}))SM$/;
const RE_WHOLE = /^\d{1,2}$/;
/** Visibility in kilometres (`20KM`), written by some stations instead of 9999. */
const RE_VIS_KM = /^(\d{1,2})KM$/;
const RE_FRACTION_SM = /^(\d{1,2})\/(\d{1,2})SM$/;

function visibilityOf(report: MetarReport): MetarVisibility {
  report.visibility ??= { cavok: false, ndv: false, directional: [] };
  return report.visibility;
}

/** Visibility in statute miles: whole, fraction, or both (`2 1/2SM` arrives as two tokens). */
function setStatuteMiles(report: MetarReport, miles: number, qualifier: string | undefined): void {
  const vis = visibilityOf(report);
  vis.statuteMiles = miles;
  vis.metres = Math.round(miles * STATUTE_MILE_M);
  if (qualifier === "M") vis.qualifier = "lessThan";
  else if (qualifier === "P") vis.qualifier = "atLeast";
  else delete vis.qualifier;
}

/** Reads a visibility group at tokens[i]; returns the tokens consumed (0 = not visibility). */
export function readVisibility(report: MetarReport, tokens: readonly Token[], i: number): number {
  const g = tokens[i]!.text;
  let m: RegExpExecArray | null;
  if (g === "CAVOK") {
    const vis = visibilityOf(report);
    vis.cavok = true;
    vis.metres = 10000;
    vis.qualifier = "atLeast";
    return 1;
  }
  if ((m = RE_VIS_M.exec(g))) {
    const vis = visibilityOf(report);
    const v = Number(m[1]);
    if (vis.metres === undefined) {
      // 9999 means "10 km or more".
      vis.metres = v === 9999 ? 10000 : v;
      if (v === 9999) vis.qualifier = "atLeast";
    } else vis.directional.push({ metres: v, direction: "" });
    if (m[2]) vis.ndv = true;
    return 1;
  }
  if ((m = RE_VIS_DIR.exec(g))) {
    visibilityOf(report).directional.push({ metres: Number(m[1]), direction: m[2]! });
    return 1;
  }
  if ((m = RE_VIS_SM.exec(g))) {
    const miles = m[2] !== undefined ? Number(m[2]) : Number(m[3]) / Number(m[4]);
    if (!Number.isFinite(miles)) return 0;
    setStatuteMiles(report, miles, m[1]);
    return 1;
  }
  if ((m = RE_VIS_KM.exec(g))) {
    visibilityOf(report).metres = Number(m[1]) * 1000;
    return 1;
  }
  if (RE_WHOLE.test(g)) {
    const next = tokens[i + 1]?.text;
    if (next !== undefined && (m = RE_FRACTION_SM.exec(next)) && Number(m[2]) > 0) {
      setStatuteMiles(report, Number(g) + Number(m[1]) / Number(m[2]), undefined);
      return 2;
    }
  }
  return 0;
}
