/**
 * METAR/SPECI decoder. Never throws: every group is either decoded or listed in `unread` with its
 * offset. Groups are recognised by their shape, so out-of-order groups still decode; groups after
 * a trend indicator (NOSIG, BECMG, TEMPO) are forecast text and never overwrite observed values.
 */
import { tokenize, type Token, type UnreadGroup } from "../unread.ts";
import {
  readCloud,
  readPressure,
  readRvr,
  readSector,
  readTemperatures,
  readVerticalVisibility,
  readWeather,
  readWind,
} from "./groups.ts";
import { decodeRemarks } from "./remarks.ts";
import type { MetarReport } from "./types.ts";
import { readVisibility } from "./visibility.ts";

const RE_STATION = /^[A-Z][A-Z0-9]{3}$/;
const RE_TIME = /^(\d\d)(\d\d)(\d\d)Z$/;
const RE_MISSING = /^\/+$/;
const RE_RUNWAY_STATE = /^(?:R\d{2}[LCR]?\/[\d/]{6}|R\d{2}[LCR]?\/CLRD\d\d|\d{8})$/;
const RE_SEA = /^W(M?\d{2}|\/\/)\/(S\d|S\/|H\d{1,3})$/;
const RE_CORRECTION = /^CC[A-Z]$/;
const TREND = new Set(["NOSIG", "BECMG", "TEMPO"]);
const CLEAR = new Set(["SKC", "CLR", "NSC", "NCD"]);
/** Colour states of military aerodromes (BLU ... RED, BLACK prefix, + suffix): read, not used. */
const RE_COLOUR = /^(?:BLACK)?(?:BLU|WHT|GRN|YLO1?|YLO2|AMB|RED)\+?$/;
const COLOUR_FIRST = new Set([..."BWGYAR"].map((ch) => ch.charCodeAt(0)));
/** Groups written as "not reported" in their own unit (////SM, RE//), and NSW (no significant weather). */
const MISSING_FORMS = new Set(["////SM", "RE//", "////KM", "NSW"]);
const KEYWORDS = new Set(["METAR", "SPECI", "AUTO", "COR", "NIL", "RMK", "CAVOK", "NOSIG", "BECMG", "TEMPO", "RTD"]);

function emptyReport(unread: UnreadGroup[]): MetarReport {
  return { kind: "METAR", auto: false, correction: false, nil: false, rvr: [], weather: [], recentWeather: [], clouds: [], skyObscured: false, trends: [], unread };
}

/** Reads one body group; returns how many tokens it consumed (0 = not read). */
function readBodyGroup(report: MetarReport, tokens: readonly Token[], i: number): number {
  const g = tokens[i]!.text;
  const c = g.charCodeAt(0);
  if (c >= 0x30 && c <= 0x39) {
    if (g.endsWith("KT") || g.endsWith("MPS") || g.endsWith("KMH")) {
      const wind = readWind(g);
      if (!wind) return 0;
      report.wind = wind;
      return 1;
    }
    const used = readVisibility(report, tokens, i);
    if (used > 0) return used;
    const sector = readSector(g);
    if (sector) {
      if (!report.wind) return 0;
      report.wind.variableFromDeg = sector[0];
      report.wind.variableToDeg = sector[1];
      return 1;
    }
    const temps = readTemperatures(g);
    if (temps) {
      if (temps.t !== undefined) report.temperatureC = temps.t;
      if (temps.d !== undefined) report.dewpointC = temps.d;
      return 1;
    }
    return RE_RUNWAY_STATE.test(g) ? 1 : 0;
  }
  if (MISSING_FORMS.has(g) || (COLOUR_FIRST.has(c) && RE_COLOUR.test(g))) return 1;
  if (c === 0x2f /* / */) {
    if (RE_MISSING.test(g)) return 1;
    if (g.endsWith("KT") || g.endsWith("MPS") || g.endsWith("KMH")) {
      const wind = readWind(g);
      if (wind) report.wind = wind;
      return wind ? 1 : 0;
    }
    const temps = readTemperatures(g);
    if (temps) {
      if (temps.d !== undefined) report.dewpointC = temps.d;
      return 1;
    }
    const cloud = readCloud(g);
    if (cloud) report.clouds.push(cloud);
    return cloud ? 1 : 0;
  }
  if (g === "CAVOK") return readVisibility(report, tokens, i);
  if (c === 0x4d /* M */ || c === 0x50 /* P */) {
    const used = readVisibility(report, tokens, i);
    if (used > 0) return used;
    const temps = readTemperatures(g);
    if (temps) {
      if (temps.t !== undefined) report.temperatureC = temps.t;
      if (temps.d !== undefined) report.dewpointC = temps.d;
      return 1;
    }
  }
  if (c === 0x51 /* Q */ || c === 0x41 /* A */) {
    const p = readPressure(g);
    if (p) {
      // Q is the WMO group; keep it when a station reports both.
      if (p.hpa !== undefined && (c === 0x51 || report.altimeterHpa === undefined)) report.altimeterHpa = p.hpa;
      if (p.inHg !== undefined) report.altimeterInHg = p.inHg;
      return 1;
    }
  }
  if (c === 0x56 /* V */ && g.startsWith("VRB")) {
    const wind = readWind(g);
    if (wind) report.wind = wind;
    return wind ? 1 : 0;
  }
  if (c === 0x56 && g.startsWith("VV")) {
    const vv = readVerticalVisibility(g);
    if (vv === undefined) return 0;
    report.skyObscured = true;
    if (vv !== null) report.verticalVisibilityFt = vv;
    return 1;
  }
  if (CLEAR.has(g)) {
    report.clearSky = g as MetarReport["clearSky"];
    return 1;
  }
  if (c === 0x52 /* R */) {
    if (g.startsWith("RE") && g.length > 3) {
      const wx = readWeather(g, true);
      if (wx) report.recentWeather.push(wx);
      if (wx) return 1;
    }
    const rvr = readRvr(g);
    if (rvr) {
      report.rvr.push(rvr);
      return 1;
    }
    if (RE_RUNWAY_STATE.test(g)) return 1;
  }
  if (g === "WS") {
    // Wind shear: WS R24, WS RWY24, WS ALL RWY.
    const next = tokens[i + 1]?.text;
    if (next === "ALL" && tokens[i + 2]?.text === "RWY") return 3;
    if (next !== undefined && /^R(?:WY)?\d{2}[LCR]?$/.test(next)) return 2;
    return 0;
  }
  if (c === 0x57 /* W */ && RE_SEA.test(g)) return 1;
  const cloud = readCloud(g);
  if (cloud) {
    report.clouds.push(cloud);
    return 1;
  }
  const wx = readWeather(g, false);
  if (wx) {
    report.weather.push(wx);
    return 1;
  }
  return 0;
}

function decodeInto(text: string, report: MetarReport): void {
  const unread = report.unread;
  const tokens = tokenize(text, unread);
  const n = tokens.length;
  let i = 0;
  while (i < n && (tokens[i]!.text === "METAR" || tokens[i]!.text === "SPECI")) {
    report.kind = tokens[i]!.text as MetarReport["kind"];
    i++;
  }
  if (i < n && tokens[i]!.text === "COR") {
    report.correction = true;
    i++;
  }
  if (i < n) {
    const t = tokens[i]!;
    if (RE_STATION.test(t.text) && !KEYWORDS.has(t.text)) {
      report.station = t.text;
      i++;
    } else if (!RE_TIME.test(t.text)) {
      unread.push({ group: t.text, offset: t.offset, reason: "expected an ICAO station identifier" });
      i++;
    }
  }
  let trendStart = -1;
  for (; i < n; ) {
    const t = tokens[i]!;
    const g = t.text;
    if (g === "RMK") {
      report.remarks = decodeRemarks(text, tokens, i + 1);
      break;
    }
    if (trendStart >= 0) {
      if (TREND.has(g)) {
        report.trends.push(text.slice(tokens[trendStart]!.offset, tokens[i - 1]!.offset + tokens[i - 1]!.text.length));
        trendStart = i;
      }
      i++;
      continue;
    }
    if (TREND.has(g)) {
      trendStart = i;
      i++;
      continue;
    }
    let m: RegExpExecArray | null;
    if (report.day === undefined && (m = RE_TIME.exec(g))) {
      const day = Number(m[1]);
      const hour = Number(m[2]);
      const minute = Number(m[3]);
      if (day >= 1 && day <= 31 && hour <= 23 && minute <= 59) {
        report.day = day;
        report.hour = hour;
        report.minute = minute;
      } else unread.push({ group: g, offset: t.offset, reason: "day, hour or minute out of range" });
      i++;
      continue;
    }
    if (g === "NIL") report.nil = true;
    else if (g === "AUTO") report.auto = true;
    else if (g === "COR" || (g.length === 3 && g.charCodeAt(0) === 0x43 && RE_CORRECTION.test(g))) report.correction = true;
    else if (g === "RTD" || g === "METAR" || g === "SPECI") {
      // RTD: a delayed report; a repeated type word is harmless.
    } else {
      const used = readBodyGroup(report, tokens, i);
      if (used > 0) {
        i += used;
        continue;
      }
      unread.push({ group: g, offset: t.offset, reason: "not a METAR group" });
    }
    i++;
  }
  if (trendStart >= 0) {
    let end = n - 1;
    const rmkAt = tokens.findIndex((t, k) => k > trendStart && t.text === "RMK");
    if (rmkAt > 0) end = rmkAt - 1;
    if (end >= trendStart) report.trends.push(text.slice(tokens[trendStart]!.offset, tokens[end]!.offset + tokens[end]!.text.length));
  }
}

/**
 * The remark T group refines the body's whole degrees. When the two disagree by more than 1 degC
 * one of them is wrong and the body (the coded observation) is taken, as aviationweather.gov does
 * (its published decodes of aviationweather-na-2025-09-09_12.csv follow this rule).
 */
export function preciseTemperature(body: number | undefined, remark: number | undefined): number | undefined {
  if (remark === undefined) return body;
  if (body === undefined) return remark;
  return Math.abs(remark - body) <= 1 + 1e-9 ? remark : body;
}

export function decodeMetar(text: string): MetarReport {
  const unread: UnreadGroup[] = [];
  const report = emptyReport(unread);
  try {
    decodeInto(text, report);
  } catch (err) {
    // A decoder bug must not lose the report: keep what was decoded and say what happened.
    unread.push({ group: text, offset: 0, reason: `decoder error: ${(err as Error).message}` });
  }
  return report;
}
