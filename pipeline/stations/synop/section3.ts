/**
 * Section 3 of FM 12 (333): 0.... (regional), 1snTxTxTx, 2snTnTnTn, 3EsnTgTg, 4E'sss,
 * 5j1j2j3j4 (evaporation, temperature change, sunshine + radiation groups, cloud drift, cloud
 * direction, 24-hour pressure change), 6RRRtR, 7R24R24R24R24, 8NsChshs (repeated) and
 * 9SpSpspsp (repeated). Returns false for a malformed group.
 */
import { layerHeightMetres } from "./codes.ts";
import { allMissing, num, signedTenths } from "./fields.ts";
import { readPrecipitation } from "./section1.ts";
import type { SynopSection3 } from "./types.ts";

export function emptySection3(): SynopSection3 {
  return { radiation: [], cloudLayers: [], special: [], gusts: [], regional: [] };
}

/** State carried between groups: radiation groups follow 55SSS / 553SS / 5540x. */
export interface Section3State {
  afterSunshine: boolean;
  lastRadiationJ: number;
  /** iR says section 3 carries a 6RRRtR group (iR = 0 or 2). */
  precipitationInSection3: boolean;
}

function readFive(s3: SynopSection3, g: string, state: Section3State): boolean {
  const j1 = g[1]!;
  if (j1 >= "0" && j1 <= "3") {
    const eee = num(g, 1, 3);
    if (eee !== undefined) s3.evaporationMm = eee / 10;
    return true;
  }
  if (j1 === "4") {
    const g0 = num(g, 2, 1);
    const sn = g[3]!;
    const dt = num(g, 4, 1);
    if (g0 !== undefined && dt !== undefined && (sn === "0" || sn === "1")) {
      s3.temperatureChange = { hoursBefore: g0, changeC: sn === "1" ? -dt : dt };
    }
    return true;
  }
  if (j1 === "5") {
    state.afterSunshine = true;
    state.lastRadiationJ = -1;
    const sss = num(g, 2, 3);
    if (g[2] === "3") {
      const ss = num(g, 3, 2);
      if (ss !== undefined) {
        if (ss > 10) return false;
        s3.sunshineH = ss / 10;
        s3.sunshinePeriodH = 1;
      }
      return true;
    }
    if (sss === undefined) return allMissing(g, 2);
    if (sss === 407 || sss === 408) return true; // 5540x: long-wave radiation groups follow
    if (sss > 240) return false;
    s3.sunshineH = sss / 10;
    s3.sunshinePeriodH = 24;
    return true;
  }
  state.afterSunshine = false;
  if (j1 === "6") {
    const d = [num(g, 2, 1), num(g, 3, 1), num(g, 4, 1)];
    s3.cloudDrift = {};
    if (d[0] !== undefined) s3.cloudDrift.low = d[0];
    if (d[1] !== undefined) s3.cloudDrift.middle = d[1];
    if (d[2] !== undefined) s3.cloudDrift.high = d[2];
    return true;
  }
  if (j1 === "7") {
    const c = num(g, 2, 1);
    const d = num(g, 3, 1);
    const e = num(g, 4, 1);
    s3.cloudDirection = {};
    if (c !== undefined) s3.cloudDirection.genus = c;
    if (d !== undefined) s3.cloudDirection.direction = d;
    if (e !== undefined) s3.cloudDirection.elevation = e;
    return true;
  }
  if (j1 === "8" || j1 === "9") {
    const ppp = num(g, 2, 3);
    if (ppp !== undefined) s3.pressureChange24hHpa = j1 === "8" ? ppp / 10 : -ppp / 10;
    return true;
  }
  return false;
}

function readRadiation(s3: SynopSection3, g: string, state: Section3State): boolean {
  const j = num(g, 0, 1)!;
  state.lastRadiationJ = j;
  const v = num(g, 1, 4);
  s3.radiation.push(v === undefined ? { j } : { j, value: v });
  return true;
}

export function readSection3Group(s3: SynopSection3, g: string, state: Section3State): boolean {
  const first = g[0]!;
  // Radiation groups j5FFFF (j5 = 0..6, increasing) follow the sunshine group. A 6 group is
  // precipitation rather than diffuse radiation when iR says section 3 holds precipitation.
  if (state.afterSunshine && first >= "0" && first <= "6" && Number(first) > state.lastRadiationJ) {
    if (first !== "5" && !(first === "6" && state.precipitationInSection3)) return readRadiation(s3, g, state);
  }
  if (first !== "5") state.afterSunshine = false;
  if (allMissing(g, 1) && first !== "0") return true;
  const s = g[1]!;
  switch (first) {
    case "0":
      s3.regional.push(g);
      return true;
    case "1":
    case "2": {
      const t = signedTenths(s, g, 2);
      if (t === undefined) return allMissing(g, 2) && (s === "0" || s === "1");
      if (first === "1") s3.maxTemperatureC = t;
      else s3.minTemperatureC = t;
      return true;
    }
    case "3": {
      const e = num(g, 1, 1);
      if (e !== undefined) s3.groundState = e;
      const sn = g[2]!;
      const tg = num(g, 3, 2);
      if (tg !== undefined && (sn === "0" || sn === "1")) s3.groundTemperatureC = sn === "1" ? -tg : tg;
      return true;
    }
    case "4": {
      const e = num(g, 1, 1);
      if (e !== undefined) s3.groundStateSnow = e;
      const sss = num(g, 2, 3);
      if (sss !== undefined) s3.snowDepthCm = sss;
      return true;
    }
    case "5":
      return readFive(s3, g, state);
    case "6": {
      const p = readPrecipitation(g);
      if (p === false) return false;
      s3.precipitation = p;
      return true;
    }
    case "7": {
      const v = num(g, 1, 4);
      if (v !== undefined) s3.precipitation24hMm = v === 9999 ? 0 : v / 10;
      return true;
    }
    case "8": {
      const ns = num(g, 1, 1);
      const c = num(g, 2, 1);
      const hh = num(g, 3, 2);
      const layer: SynopSection3["cloudLayers"][number] = {};
      if (ns !== undefined) layer.octas = ns;
      if (c !== undefined) layer.genus = c;
      if (hh !== undefined) {
        layer.heightCode = hh;
        const m = layerHeightMetres(hh);
        if (m !== undefined) layer.heightM = m;
      }
      s3.cloudLayers.push(layer);
      return true;
    }
    case "9": {
      const code = num(g, 1, 2);
      if (code === undefined) return false;
      s3.special.push({ code, value: g.slice(3) });
      return true;
    }
    default:
      return false;
  }
}
