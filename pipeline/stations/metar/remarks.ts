/**
 * US remarks (FMH-1 chapter 12, as practised by NWS/FAA stations) that carry values we use:
 * AO1/AO2, SLPppp, Prrrr, 6RRRR, 7RRRR, TsTTTsTTT, 1sTTT, 2sTTT, 4sTTTsTTT, 5appp, 4/sss,
 * PK WND dddff(f)/(hh)mm and the maintenance sign `$`. Free text is kept in `raw` only: remarks are
 * free-form by definition, so an unrecognised remark is not an unread group.
 */
import type { Token } from "../unread.ts";
import type { MetarRemarks } from "./types.ts";

/** Hundredths of an inch to millimetres, rounded to 0.01 mm. */
function hundredthsInchToMm(v: number): number {
  return Math.round(v * 25.4) / 100;
}

function tenthsSigned(sign: string, digits: string): number {
  const v = Number(digits) / 10;
  return sign === "1" ? -v : v;
}

const RE_T = /^T([01])(\d{3})(?:([01])(\d{3})|\/\/\/\/)?$/;
const RE_MAXMIN = /^([12])([01])(\d{3})$/;
const RE_24 = /^4([01])(\d{3})([01])(\d{3})$/;
const RE_PRECIP = /^([P67])(\d{3,4}|\/\/\/\/)$/;
const RE_TEND = /^5([0-8])(\d{3})$/;
const RE_SLP = /^SLP(\d{3})$/;
const RE_SNOW = /^4\/(\d{3})$/;
const RE_PK = /^(\d{3})(\d{2,3})\/(\d{2,4})$/;

export function decodeRemarks(text: string, tokens: readonly Token[], start: number): MetarRemarks {
  const first = tokens[start];
  const raw = first ? text.slice(first.offset, tokens[tokens.length - 1]!.offset + tokens[tokens.length - 1]!.text.length) : "";
  const rmk: MetarRemarks = { raw, maintenance: false };
  for (let i = start; i < tokens.length; i++) {
    const g = tokens[i]!.text;
    const c = g.charCodeAt(0);
    let m: RegExpExecArray | null;
    if (g === "AO1" || g === "AO2" || g === "AO1A" || g === "AO2A") rmk.stationType = g;
    else if (g === "$") rmk.maintenance = true;
    else if (c === 0x53 /* S */ && (m = RE_SLP.exec(g))) {
      const v = Number(m[1]) / 10;
      // SLPppp gives tens, units and tenths of hPa: 500 and above belong to the 900s.
      rmk.seaLevelPressureHpa = Math.round((v >= 50 ? 900 + v : 1000 + v) * 10) / 10;
    } else if (c === 0x54 /* T */ && (m = RE_T.exec(g))) {
      rmk.temperatureC = tenthsSigned(m[1]!, m[2]!);
      if (m[3] !== undefined) rmk.dewpointC = tenthsSigned(m[3], m[4]!);
    } else if ((c === 0x50 || c === 0x36 || c === 0x37) && g.length === 5 && (m = RE_PRECIP.exec(g))) {
      const indeterminate = m[2] === "////";
      const mm = indeterminate ? undefined : hundredthsInchToMm(Number(m[2]));
      if (m[1] === "P") {
        if (mm !== undefined) rmk.hourlyPrecipitationMm = mm;
      } else if (m[1] === "6") {
        if (mm !== undefined) rmk.precipitation3or6hMm = mm;
        else rmk.precipitation3or6hIndeterminate = true;
      } else if (mm !== undefined) rmk.precipitation24hMm = mm;
    } else if ((c === 0x31 || c === 0x32) && (m = RE_MAXMIN.exec(g))) {
      if (m[1] === "1") rmk.max6hC = tenthsSigned(m[2]!, m[3]!);
      else rmk.min6hC = tenthsSigned(m[2]!, m[3]!);
    } else if (c === 0x34 && (m = RE_24.exec(g))) {
      rmk.max24hC = tenthsSigned(m[1]!, m[2]!);
      rmk.min24hC = tenthsSigned(m[3]!, m[4]!);
    } else if (c === 0x34 && (m = RE_SNOW.exec(g))) {
      rmk.snowDepthIn = Number(m[1]);
    } else if (c === 0x35 && (m = RE_TEND.exec(g))) {
      rmk.pressureTendency = { characteristic: Number(m[1]), changeHpa: Number(m[2]) / 10 };
    } else if (g === "PK" && tokens[i + 1]?.text === "WND" && tokens[i + 2] && (m = RE_PK.exec(tokens[i + 2]!.text))) {
      rmk.peakWind = { directionDeg: Number(m[1]), speedKt: Number(m[2]), time: m[3]! };
      i += 2;
    }
  }
  return rmk;
}
