/**
 * Readers of the groups of a METAR body (FM 15 and US practice). Each returns undefined when the
 * group does not have its shape, so the decoder can try the next reader; none throws.
 */
import type { CloudLayer, MetarWind, RunwayVisualRange, SpeedUnit, WeatherGroup } from "./types.ts";

export const STATUTE_MILE_M = 1609.344;
/** hPa per inch of mercury (WMO No. 8, 1 inHg = 33.8639 hPa). */
export const HPA_PER_INHG = 33.8639;
const MPS_TO_KT = 1 / 0.514444;
const KMH_TO_KT = 1 / 1.852;

const RE_WIND = /^(\d{3}|VRB|\/\/\/)(\d{2,3}|\/\/)(?:G(\d{2,3}|\/\/))?(KT|MPS|KMH)$/;
const RE_SECTOR = /^(\d{3})V(\d{3})$/;
const RE_RVR = /^R(\d{2}[LCR]?)\/([MP])?(\d{4}|\/\/\/\/)(?:V([MP])?(\d{4}))?(FT)?\/?([UDN])?$/;
// Intensity, then VC (some stations write -VCTSRA), descriptor, phenomena.
const RE_WX = /^([-+])?(VC)?(MI|PR|BC|DR|BL|SH|TS|FZ)?((?:DZ|RA|SN|SG|IC|PL|GR|GS|UP|BR|FG|FU|VA|DU|SA|HZ|PY|PO|SQ|FC|SS|DS)*)$/;
const RE_CLOUD = /^(FEW|SCT|BKN|OVC|\/\/\/)(\d{3}|\/\/\/)?(CB|TCU|\/\/\/)?$/;
const RE_VV = /^VV(\d{3}|\/\/\/)$/;
const RE_TEMP = /^(M?\d{2}|\/\/|MM)\/(M?\d{2}|\/\/|MM)?$/;
const RE_PRESSURE = /^([QA])(\d{4}|\/\/\/\/)$/;

function toKnots(value: number, unit: SpeedUnit): number {
  if (unit === "KT") return value;
  return Math.round(value * (unit === "MPS" ? MPS_TO_KT : KMH_TO_KT) * 10) / 10;
}

export function readWind(g: string): MetarWind | undefined {
  const m = RE_WIND.exec(g);
  if (!m) return undefined;
  const unit = m[4] as SpeedUnit;
  const wind: MetarWind = { variable: m[1] === "VRB", unit };
  if (m[1] !== "VRB" && m[1] !== "///") {
    const dir = Number(m[1]);
    if (dir > 360 || dir % 10 !== 0) return undefined;
    wind.directionDeg = dir;
  }
  if (m[2] !== "//") {
    wind.speed = Number(m[2]);
    wind.speedKt = toKnots(wind.speed, unit);
  }
  if (m[3] !== undefined && m[3] !== "//") {
    wind.gust = Number(m[3]);
    wind.gustKt = toKnots(wind.gust, unit);
  }
  return wind;
}

export function readSector(g: string): [number, number] | undefined {
  const m = RE_SECTOR.exec(g);
  if (!m) return undefined;
  const from = Number(m[1]);
  const to = Number(m[2]);
  if (from > 360 || to > 360) return undefined;
  return [from, to];
}

export function readRvr(g: string): RunwayVisualRange | undefined {
  const m = RE_RVR.exec(g);
  if (!m) return undefined;
  const rvr: RunwayVisualRange = { runway: m[1]!, unit: m[6] ? "ft" : "m", raw: g };
  if (m[3] !== "////") rvr.value = Number(m[3]);
  if (m[2] === "M") rvr.qualifier = "lessThan";
  if (m[2] === "P") rvr.qualifier = "moreThan";
  if (m[5] !== undefined) rvr.variableTo = Number(m[5]);
  if (m[7] !== undefined) rvr.tendency = m[7] as "U" | "D" | "N";
  return rvr;
}

/** Present weather (or recent weather when `recent`), per WMO code table 4678. */
export function readWeather(g: string, recent: boolean): WeatherGroup | undefined {
  const body = recent ? g.slice(2) : g;
  const m = RE_WX.exec(body);
  if (!m) return undefined;
  const descriptor = m[3];
  const phen = m[4] ?? "";
  if (descriptor === undefined && phen.length === 0) return undefined;
  // A descriptor alone is only meaningful for TS and SH (VCSH, VCTS, TS).
  if (phen.length === 0 && descriptor !== "TS" && descriptor !== "SH") return undefined;
  const phenomena: string[] = [];
  for (let i = 0; i < phen.length; i += 2) phenomena.push(phen.slice(i, i + 2));
  const wx: WeatherGroup = {
    intensity: m[1] === "-" ? "light" : m[1] === "+" ? "heavy" : "moderate",
    vicinity: m[2] === "VC",
    phenomena,
    recent,
    raw: g,
  };
  if (descriptor !== undefined) wx.descriptor = descriptor;
  return wx;
}

export function readCloud(g: string): CloudLayer | undefined {
  const m = RE_CLOUD.exec(g);
  if (!m) return undefined;
  if (m[1] === "///" && m[2] === undefined && m[3] === undefined) return undefined;
  const layer: CloudLayer = {};
  if (m[1] !== "///") layer.cover = m[1] as CloudLayer["cover"];
  if (m[2] !== undefined && m[2] !== "///") layer.baseFt = Number(m[2]) * 100;
  if (m[3] === "CB" || m[3] === "TCU") layer.type = m[3];
  return layer;
}

/** Vertical visibility in feet; null for `VV///` (sky obscured, height not given). */
export function readVerticalVisibility(g: string): number | null | undefined {
  const m = RE_VV.exec(g);
  if (!m) return undefined;
  return m[1] === "///" ? null : Number(m[1]) * 100;
}

function signedTemp(s: string | undefined): number | undefined {
  if (s === undefined || s === "//" || s === "MM") return undefined;
  return s.charCodeAt(0) === 0x4d ? -Number(s.slice(1)) : Number(s);
}

export function readTemperatures(g: string): { t?: number; d?: number } | undefined {
  const m = RE_TEMP.exec(g);
  if (!m) return undefined;
  const out: { t?: number; d?: number } = {};
  const t = signedTemp(m[1]);
  const d = signedTemp(m[2]);
  if (t !== undefined) out.t = t === 0 ? 0 : t;
  if (d !== undefined) out.d = d === 0 ? 0 : d;
  return out;
}

/** Q (hPa) or A (hundredths of inHg). Returns hPa and, for A, the inHg value. */
export function readPressure(g: string): { hpa?: number; inHg?: number } | undefined {
  const m = RE_PRESSURE.exec(g);
  if (!m) return undefined;
  if (m[2] === "////") return {};
  const v = Number(m[2]);
  if (m[1] === "Q") return v >= 850 && v <= 1100 ? { hpa: v } : undefined;
  const inHg = v / 100;
  if (inHg < 25 || inHg > 32.5) return undefined;
  return { hpa: Math.round(inHg * HPA_PER_INHG * 10) / 10, inHg };
}
