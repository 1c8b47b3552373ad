/**
 * Reading section 1 as a careful human would when its head is not as FM 12 lays it out.
 *
 * Section 1 is iRiXhVV Nddff (00fff) then the numbered groups 1-9 in increasing order, each at
 * most once. Real reports omit iRiXhVV or Nddff, or carry a stray group between them (87750
 * `42965 42765 50209 10281 ...`: a second indicator group; read as Nddff it gives 4 octas and
 * 65 kt, and `50209` would become the tendency group, leaving 10281-40195 out of order). The
 * reading in the standard layout is kept unless it shows a symptom: a group it cannot read, a
 * numbered group out of order or repeated, or a contradiction between its groups. Then four
 * layouts are read and the one that reads the most groups in their places, less one for each
 * contradiction and for a skipped stray group, wins; ties go to the first in this order:
 * - standard: iRiXhVV, Nddff, numbered groups;
 * - iRiXhVV omitted: Nddff, numbered groups;
 * - Nddff omitted: iRiXhVV, numbered groups;
 * - a stray group between iRiXhVV and Nddff (listed as unread, never used).
 * Contradictions (WMO-No. 306, FM 12 regulations and code tables): low cloud Nh (8NhCLCMCH) more
 * than the total cover N (neither 9, sky obscured); N = 0 with cloud reported in group 8; a wind
 * of hurricane force or more (64 kt, 33 m/s) where another reading exists; iX = 1 or 4 (group 7
 * included) without group 7, or iX = 2, 3, 5 or 6 (omitted) with one; a dewpoint above the
 * temperature. The principle of the numbered groups stays: within a layout, the group in its
 * place is read and a repeated or out-of-order one is listed as unread, never used.
 */
import type { Token, UnreadGroup } from "../unread.ts";
import { isGroup } from "./fields.ts";
import { readCloudWind, readExtendedWind, readIndicators, readSection1Group } from "./section1.ts";
import type { SynopReport } from "./types.ts";

export type Section1Layout = "standard" | "indicators omitted" | "cloud and wind omitted" | "stray before cloud and wind";
const LAYOUTS: readonly Section1Layout[] = ["standard", "indicators omitted", "cloud and wind omitted", "stray before cloud and wind"];

interface Reading {
  r: SynopReport;
  /** Groups read in their places. */
  read: number;
  contradictions: number;
  stray: boolean;
}

const INVALID = "not a valid section 1 group";

function unreadAt(r: SynopReport, t: Token, reason: string): void {
  r.unread.push({ group: t.text, offset: t.offset, reason });
}

/** Reads the five-character groups of section 1 (station index repeat already removed) in one layout into `r`. */
function readLayout(r: SynopReport, groups: readonly Token[], layout: Section1Layout): Reading {
  let k = 0;
  let read = 0;
  let stray = false;
  if (layout !== "indicators omitted" && k < groups.length) {
    if (readIndicators(r, groups[k]!.text)) read++;
    else unreadAt(r, groups[k]!, INVALID);
    k++;
  }
  if (layout === "stray before cloud and wind" && k < groups.length) {
    unreadAt(r, groups[k++]!, "stray group before Nddff (the report reads in order without it)");
    stray = true;
  }
  if (layout !== "cloud and wind omitted" && k < groups.length) {
    const res = readCloudWind(r, groups[k]!.text);
    if (res === false) unreadAt(r, groups[k]!, INVALID);
    else read++;
    k++;
    if (res === "extended" && k < groups.length && groups[k]!.text.startsWith("00")) {
      if (readExtendedWind(r, groups[k]!.text)) read++;
      else unreadAt(r, groups[k]!, INVALID);
      k++;
    }
  }
  let lastNumbered = 0;
  let group7 = false;
  for (; k < groups.length; k++) {
    const t = groups[k]!;
    const figure = t.text.charCodeAt(0) - 0x30;
    if (figure >= 1 && figure <= 9 && figure <= lastNumbered) {
      unreadAt(r, t, figure === lastNumbered ? `section 1 group ${figure} repeated` : `section 1 group ${figure} out of order (after group ${lastNumbered})`);
      continue;
    }
    if (figure >= 1 && figure <= 9) lastNumbered = figure;
    if (figure === 7) group7 = true;
    if (readSection1Group(r, t.text)) read++;
    else unreadAt(r, t, INVALID);
  }
  return { r, read, contradictions: contradictions(r, group7), stray };
}

/** Contradictions between the groups read (see the module comment); `group7`: group 7 read in its place. */
function contradictions(r: SynopReport, group7: boolean): number {
  let n = 0;
  const N = r.totalCloudOctas;
  const Nh = r.lowCloudOctas;
  if (N !== undefined && N !== 9 && Nh !== undefined && Nh !== 9 && Nh > N) n++;
  else if (N === 0 && ((Nh !== undefined && Nh > 0) || (r.cloudLow ?? 0) > 0 || (r.cloudMiddle ?? 0) > 0 || (r.cloudHigh ?? 0) > 0)) n++;
  const ff = r.windSpeed;
  if (ff !== undefined && ((r.windUnit === "kt" && ff >= 64) || (r.windUnit === "m/s" && ff >= 33))) n++;
  if (r.weatherIndicator !== undefined) {
    const has7 = group7;
    const says7 = r.weatherIndicator === 1 || r.weatherIndicator === 4;
    const saysNone = r.weatherIndicator === 2 || r.weatherIndicator === 3 || r.weatherIndicator === 5 || r.weatherIndicator === 6;
    if ((says7 && !has7) || (saysNone && has7)) n++;
  }
  if (r.temperatureC !== undefined && r.dewpointC !== undefined && r.dewpointC > r.temperatureC) n++;
  return n;
}

const score = (x: Reading): number => x.read - x.contradictions - (x.stray ? 1 : 0);

/** Members a blank report starts with: bookkeeping and the section 0 values section 1 reads with. */
const NOT_SECTION1 = new Set(["nil", "unread", "groupsSeen", "groupsRead", "windUnit", "windMeasured"]);

/** A report with only the section 0 values that reading section 1 needs, to read a layout into. */
function blankLike(r: SynopReport): SynopReport {
  const b: SynopReport = { nil: false, unread: [], groupsSeen: 0, groupsRead: 0 };
  if (r.windUnit !== undefined) b.windUnit = r.windUnit;
  if (r.windMeasured !== undefined) b.windMeasured = r.windMeasured;
  return b;
}

/**
 * Decodes section 1 (its tokens, up to the first section marker) into `r`: counts, unread groups
 * (non-groups, a repeated station index, groups not read in the chosen layout) and values. The
 * standard layout is read straight into `r`; only a report with a symptom (124 of the corpus's
 * 17,928) reads the others, and one of them that wins replaces the standard reading's values.
 */
export function decodeSection1(r: SynopReport, tokens: readonly Token[]): void {
  r.groupsSeen += tokens.length;
  // Most reports: every token a group and no repeated station index, read as they are.
  let clean = tokens.length === 0 || tokens[0]!.text !== r.station;
  for (let i = 0; i < tokens.length && clean; i++) clean = isGroup(tokens[i]!.text);
  let groups = tokens;
  const skipped: UnreadGroup[] = [];
  if (!clean) {
    const kept: Token[] = [];
    for (const t of tokens) {
      if (!isGroup(t.text)) skipped.push({ group: t.text, offset: t.offset, reason: "not a five-character SYNOP group" });
      else if (kept.length === 0 && t.text === r.station) skipped.push({ group: t.text, offset: t.offset, reason: "station index repeated" });
      else kept.push(t);
    }
    groups = kept;
  }
  const unreadBefore = r.unread.length;
  const standard = readLayout(r, groups, "standard");
  let best = standard;
  if (r.unread.length > unreadBefore || standard.contradictions > 0) {
    for (const layout of LAYOUTS.slice(1)) {
      if (layout === "stray before cloud and wind" && groups.length < 3) continue;
      const other = readLayout(blankLike(r), groups, layout);
      if (score(other) > score(best)) best = other;
    }
  }
  if (best !== standard) {
    // Take the standard reading's values out of r (read it again to know which it set), then the winner's in.
    const fields = r as unknown as Record<string, unknown>;
    for (const k of Object.keys(readLayout(blankLike(r), groups, "standard").r)) if (!NOT_SECTION1.has(k)) delete fields[k];
    for (const [k, v] of Object.entries(best.r)) if (!NOT_SECTION1.has(k)) fields[k] = v;
    r.unread.length = unreadBefore;
    r.unread.push(...best.r.unread);
  }
  r.groupsRead += best.read;
  if (skipped.length > 0) {
    r.unread.push(...skipped);
    r.unread.sort((a, b) => a.offset - b.offset);
  }
}
