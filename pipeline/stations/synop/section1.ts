/**
 * Section 1 of FM 12: iRiXhVV Nddff (00fff) 1snTTT 2snTdTdTd|29UUU 3P0P0P0P0 4PPPP|4a3hhh 5appp
 * 6RRRtR 7wwW1W2 8NhCLCMCH 9GGgg. Each reader returns false when the group is malformed.
 */
import { ISOBARIC_SURFACE_HPA, precipitationMm, precipitationPeriodHours, visibilityMetres } from "./codes.ts";
import { allMissing, num, signedTenths } from "./fields.ts";
import type { SynopPrecipitation, SynopReport } from "./types.ts";

const KT_PER_MPS = 1 / 0.514444;

/** iRiXhVV; false (and nothing set) when iR, iX or VV is not a code figure of its table. */
export function readIndicators(r: SynopReport, g: string): boolean {
  const iR = num(g, 0, 1);
  const iX = num(g, 1, 1);
  const h = num(g, 2, 1);
  const vv = num(g, 3, 2);
  const metres = vv === undefined ? undefined : visibilityMetres(vv);
  if ((iR !== undefined && iR > 4) || (iX !== undefined && (iX < 1 || iX > 7)) || (vv !== undefined && metres === undefined)) return false;
  if (iR !== undefined) r.precipitationIndicator = iR;
  if (iX !== undefined) r.weatherIndicator = iX;
  if (h !== undefined) r.cloudBaseCode = h;
  if (vv !== undefined) {
    r.visibilityCode = vv;
    r.visibilityM = metres!;
  }
  return true;
}

function setWindSpeed(r: SynopReport, ff: number): void {
  r.windSpeed = ff;
  if (r.windUnit === "kt") {
    r.windSpeedKt = ff;
    r.windSpeedMps = Math.round(ff * 0.514444 * 10) / 10;
  } else if (r.windUnit === "m/s") {
    r.windSpeedMps = ff;
    r.windSpeedKt = Math.round(ff * KT_PER_MPS * 10) / 10;
  }
}

/**
 * Nddff; returns "extended" when ff = 99 announces a 00fff group. When dd is no code figure of
 * table 0877 the wind is left out and false returned (the group is listed as unread), but N, a
 * figure of its own, is read: a hand decoder reads 64105 as 6 octas and a garbled wind.
 */
export function readCloudWind(r: SynopReport, g: string): boolean | "extended" {
  const n = num(g, 0, 1);
  const dd = num(g, 1, 2);
  const ff = num(g, 3, 2);
  if (n !== undefined) r.totalCloudOctas = n;
  if (dd !== undefined && dd > 36 && dd !== 99) return false;
  if (dd === 0) r.windCalm = true;
  else if (dd === 99) r.windVariable = true;
  else if (dd !== undefined) r.windDirectionDeg = dd * 10;
  if (ff !== undefined) {
    if (ff === 99) return "extended";
    setWindSpeed(r, ff);
  }
  return true;
}

export function readExtendedWind(r: SynopReport, g: string): boolean {
  const fff = num(g, 2, 3);
  if (g[0] !== "0" || g[1] !== "0") return false;
  if (fff !== undefined) setWindSpeed(r, fff);
  return true;
}

export function readPrecipitation(g: string): SynopPrecipitation | false {
  const rrr = num(g, 1, 3);
  const tr = num(g, 4, 1);
  const p: SynopPrecipitation = { trace: false };
  if (rrr !== undefined) {
    const v = precipitationMm(rrr);
    p.mm = v.mm;
    p.trace = v.trace;
  }
  if (tr !== undefined) {
    const h = precipitationPeriodHours(tr);
    if (h !== undefined) p.periodH = h;
  }
  return p;
}

/** Pressure PPPP in tenths of hPa with the thousands digit dropped. */
function pressureHpa(v: number): number {
  const hpa = v / 10;
  return Math.round((hpa < 100 ? hpa + 1000 : hpa) * 10) / 10;
}

/** One numbered group 1-9 of section 1. */
export function readSection1Group(r: SynopReport, g: string): boolean {
  if (allMissing(g, 1)) return true;
  const s = g[1]!;
  switch (g[0]) {
    case "1": {
      const t = signedTenths(s, g, 2);
      if (t === undefined) return allMissing(g, 2) && (s === "0" || s === "1");
      r.temperatureC = t;
      return true;
    }
    case "2": {
      if (s === "9") {
        const u = num(g, 2, 3);
        if (u === undefined || u > 100) return false;
        r.relativeHumidity = u;
        return true;
      }
      const t = signedTenths(s, g, 2);
      if (t === undefined) return allMissing(g, 2) && (s === "0" || s === "1");
      r.dewpointC = t;
      return true;
    }
    case "3": {
      const v = num(g, 1, 4);
      if (v === undefined) return allMissing(g, 1) || allMissing(g, 2);
      r.stationPressureHpa = pressureHpa(v);
      return true;
    }
    case "4": {
      const level = ISOBARIC_SURFACE_HPA[s];
      if (level !== undefined) {
        const hhh = num(g, 2, 3);
        if (hhh !== undefined) r.geopotential = { levelHpa: level, gpm: geopotentialMetres(level, hhh) };
        return true;
      }
      const v = num(g, 1, 4);
      if (v === undefined) return allMissing(g, 2) && (s === "0" || s === "9");
      if (s !== "0" && s !== "9") return false;
      r.seaLevelPressureHpa = pressureHpa(v);
      return true;
    }
    case "5": {
      // a = "/" (characteristic not given) with a change still reported occurs (Cuba, 5/011).
      const a = num(g, 1, 1);
      if ((a === undefined && g[1] !== "/") || (a !== undefined && a > 8)) return false;
      const ppp = num(g, 2, 3);
      r.pressureTendency = {};
      if (a !== undefined) r.pressureTendency.characteristic = a;
      if (ppp !== undefined) r.pressureTendency.changeHpa = ppp / 10;
      return true;
    }
    case "6": {
      const p = readPrecipitation(g);
      if (p === false) return false;
      r.precipitation = p;
      return true;
    }
    case "7": {
      const ww = num(g, 1, 2);
      const w1 = num(g, 3, 1);
      const w2 = num(g, 4, 1);
      if (ww !== undefined) {
        r.presentWeather = ww;
        r.presentWeatherTable = r.weatherIndicator === 7 ? "4680" : "4677";
      }
      if (w1 !== undefined) r.pastWeather1 = w1;
      if (w2 !== undefined) r.pastWeather2 = w2;
      return true;
    }
    case "8": {
      const nh = num(g, 1, 1);
      if (nh !== undefined) r.lowCloudOctas = nh;
      const cl = num(g, 2, 1);
      const cm = num(g, 3, 1);
      const ch = num(g, 4, 1);
      if (cl !== undefined) r.cloudLow = cl;
      if (cm !== undefined) r.cloudMiddle = cm;
      if (ch !== undefined) r.cloudHigh = ch;
      return true;
    }
    case "9": {
      const hh = num(g, 1, 2);
      const mm = num(g, 3, 2);
      if (hh === undefined || mm === undefined || hh > 23 || mm > 59) return false;
      r.exactTime = { hour: hh, minute: mm };
      return true;
    }
    default:
      return false;
  }
}

/** hhh of 4a3hhh: the digits dropped per level (Manual on Codes, regulation 12.2.3.4.2). */
function geopotentialMetres(level: number, hhh: number): number {
  if (level === 1000) return hhh >= 500 ? -(hhh - 500) : hhh;
  if (level === 850) return 1000 + hhh;
  if (level === 700) return hhh < 500 ? 3000 + hhh : 2000 + hhh;
  if (level === 500) return hhh * 10;
  return hhh;
}
