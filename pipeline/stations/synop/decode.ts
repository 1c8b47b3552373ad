/**
 * FM 12 SYNOP decoder for one report given with its section 0 (`AAXX YYGGiw IIiii ...`). Never
 * throws: groups it cannot read are listed with their offsets. Sections 1 and 3 are decoded;
 * sections 2, 4, 5 and national sections are kept as written.
 *
 * Sections come in the order 1, 2 (222Dsvs), 3 (333), 4 (444), 5 (555) (WMO-No. 306, FM 12):
 * a marker that does not move forward is not a marker. `222..` starts section 2 only after the
 * Nddff group (section 2 is maritime data of a sea or coastal station, written after section 1);
 * in the place of Nddff it is Nddff (N = 2 octas, dd = 22, e.g. Argentine 87803 `22208`).
 * Section 1 is read as a whole (section1-layout.ts): its head in the standard layout unless the
 * report reads better with iRiXhVV or Nddff omitted or a stray group between them; groups 1-9 come
 * in a fixed increasing order, each at most once: the group in its place is read, a repeated or
 * out-of-order group is listed as unread and never used.
 */
import { tokenize, type Token, type UnreadGroup } from "../unread.ts";
import { isGroup, num } from "./fields.ts";
import { decodeSection1 } from "./section1-layout.ts";
import { emptySection3, readSection3Group, type Section3State } from "./section3.ts";
import type { SynopReport, SynopSection3 } from "./types.ts";

function readSection0(r: SynopReport, tokens: readonly Token[], unread: UnreadGroup[]): number {
  let i = 0;
  const first = tokens[0];
  if (first && first.text === "AAXX") i = 1;
  else if (first && /^[A-Z]{4}$/.test(first.text)) {
    unread.push({ group: first.text, offset: first.offset, reason: "only land stations (AAXX) are decoded" });
    i = 1;
  }
  const yyggi = tokens[i];
  if (yyggi && isGroup(yyggi.text)) {
    const yy = num(yyggi.text, 0, 2);
    const gg = num(yyggi.text, 2, 2);
    const iw = yyggi.text[4];
    if (yy !== undefined && yy >= 1 && yy <= 31 && gg !== undefined && gg <= 23) {
      r.day = yy;
      r.hour = gg;
    } else unread.push({ group: yyggi.text, offset: yyggi.offset, reason: "day (01-31) or hour (00-23) out of range" });
    if (iw === "0" || iw === "1") r.windUnit = "m/s";
    else if (iw === "3" || iw === "4") r.windUnit = "kt";
    if (iw === "1" || iw === "4") r.windMeasured = true;
    else if (iw === "0" || iw === "3") r.windMeasured = false;
    i++;
  } else if (yyggi) {
    unread.push({ group: yyggi.text, offset: yyggi.offset, reason: "expected YYGGiw" });
    i++;
  }
  const station = tokens[i];
  if (station && /^\d{5}$/.test(station.text)) {
    r.station = station.text;
    i++;
  } else if (station) {
    unread.push({ group: station.text, offset: station.offset, reason: "expected a five-digit station index IIiii" });
    i++;
  }
  return i;
}

type Section = 1 | 2 | 3 | 4 | 5;

/**
 * The section a group starts, or undefined when it is no marker here: sections only move forward,
 * and `222Dsvs` is section 2 only after section 1's head (its third group or later).
 */
function sectionMarker(g: string, section: Section, indexInSection1: number): Section | undefined {
  const next: Section | undefined = g === "333" ? 3 : g === "444" ? 4 : g === "555" ? 5 : g.length === 5 && g.startsWith("222") ? 2 : undefined;
  if (next === undefined || next <= section) return undefined;
  if (next === 2 && (section !== 1 || indexInSection1 < 2)) return undefined;
  return next;
}

function decodeInto(text: string, r: SynopReport): void {
  const unread = r.unread;
  const tokens = tokenize(text, unread);
  let i = readSection0(r, tokens, unread);
  if (i < tokens.length && tokens[i]!.text.toUpperCase() === "NIL") {
    r.nil = true;
    return;
  }
  const section1Start = i;
  while (i < tokens.length && sectionMarker(tokens[i]!.text, 1, i - section1Start) === undefined) i++;
  decodeSection1(r, tokens.slice(section1Start, i));
  let section: Section = 1;
  let sectionStart = -1;
  const s3state: Section3State = { afterSunshine: false, lastRadiationJ: -1, precipitationInSection3: false };
  const closeRaw = (end: number): void => {
    if (sectionStart < 0 || sectionStart > end || section === 1 || section === 3) return;
    const from = tokens[sectionStart]!;
    const last = tokens[end]!;
    const raw = text.slice(from.offset, last.offset + last.text.length);
    if (section === 2) r.section2 = raw;
    else if (section === 4) r.section4 = raw;
    else r.section5 = r.section5 === undefined ? raw : `${r.section5} ${raw}`;
  };
  for (; i < tokens.length; i++) {
    const t = tokens[i]!;
    const g = t.text;
    const marker = sectionMarker(g, section, Number.MAX_SAFE_INTEGER);
    if (marker !== undefined) {
      closeRaw(i - 1);
      section = marker;
      sectionStart = marker === 2 ? i : i + 1;
      if (marker === 3) {
        r.section3 ??= emptySection3();
        s3state.precipitationInSection3 = r.precipitationIndicator === 0 || r.precipitationIndicator === 2;
      }
      continue;
    }
    if (section !== 3) continue;
    r.groupsSeen++;
    if (!isGroup(g)) {
      unread.push({ group: g, offset: t.offset, reason: "not a five-character SYNOP group" });
      continue;
    }
    if (readSection3Group(r.section3!, g, s3state)) r.groupsRead++;
    else unread.push({ group: g, offset: t.offset, reason: "not a valid section 3 group" });
  }
  closeRaw(tokens.length - 1);
  if (r.section3) readGusts(r);
}

/** 910ff / 911ff (code table 3778). ff = 99 (speeds of 99 units or more) is kept as 99. */
function readGusts(r: SynopReport): void {
  const special = r.section3!.special;
  for (let k = 0; k < special.length; k++) {
    const sp = special[k]!;
    if (sp.code !== 10 && sp.code !== 11) continue;
    const ff = num(sp.value, 0, 2);
    const gust: SynopSection3["gusts"][number] = { window: sp.code === 10 ? "10min" : "period" };
    if (ff !== undefined) {
      gust.speed = ff;
      if (r.windUnit === "kt") gust.speedKt = ff;
      else if (r.windUnit === "m/s") gust.speedKt = Math.round((ff / 0.514444) * 10) / 10;
    }
    r.section3!.gusts.push(gust);
  }
}

export function decodeSynop(text: string): SynopReport {
  const r: SynopReport = { nil: false, unread: [], groupsSeen: 0, groupsRead: 0 };
  try {
    decodeInto(text, r);
  } catch (err) {
    r.unread.push({ group: text, offset: 0, reason: `decoder error: ${(err as Error).message}` });
  }
  return r;
}
