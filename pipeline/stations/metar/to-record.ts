/**
 * A decoded METAR to the spec's station observation record (units in datasets/stations/record.ts).
 * - visibility: prevailing visibility in metres (9999 and CAVOK give 10000; M1/4SM gives 402: the
 *   bound as written); when only directional values are given, the lowest of them.
 * - temperature: the precise remark T group when present and consistent with the body group
 *   (within 1 degC), else the body group.
 * - cloudCover: the largest layer amount, as the middle of its octa range (FEW 1.5, SCT 3.5,
 *   BKN 6, OVC 8 octas) x 12.5; VV gives 100; SKC, CLR, NSC, NCD and CAVOK give 0.
 * - precipitation: the hourly P group (mm, 1 hour); precipitationConvective equals it when a
 *   shower or thunderstorm is reported (present or recent weather), else 0.
 */
import type { StationObservationRecord } from "../../../datasets/stations/record.ts";
import type { MetarReport } from "./types.ts";
import { preciseTemperature } from "./decode.ts";
import { wwOfReport } from "./weather-ww.ts";

const LAYER_OCTAS = { FEW: 1.5, SCT: 3.5, BKN: 6, OVC: 8 } as const;

function cloudCover(r: MetarReport): number | undefined {
  if (r.skyObscured) return 100;
  let best: number | undefined;
  for (const layer of r.clouds) {
    if (layer.cover === undefined) continue;
    const pct = LAYER_OCTAS[layer.cover] * 12.5;
    if (best === undefined || pct > best) best = pct;
  }
  if (best !== undefined) return best;
  if (r.clearSky !== undefined || r.visibility?.cavok) return 0;
  return undefined;
}

function visibility(r: MetarReport): number | undefined {
  const v = r.visibility;
  if (!v) return undefined;
  if (v.metres !== undefined) return v.metres;
  let min: number | undefined;
  for (const d of v.directional) if (min === undefined || d.metres < min) min = d.metres;
  return min;
}

function isConvective(r: MetarReport): boolean {
  for (const w of r.weather) if (!w.vicinity && (w.descriptor === "SH" || w.descriptor === "TS")) return true;
  for (const w of r.recentWeather) if (w.descriptor === "SH" || w.descriptor === "TS") return true;
  return false;
}

export function metarToRecord(r: MetarReport, timestamp: number): StationObservationRecord {
  const rec: StationObservationRecord = { timestamp };
  const ww = wwOfReport(r.weather.length > 0 ? r.weather : r.recentWeather);
  if (ww !== undefined) rec.wid = String(ww).padStart(2, "0");
  const vis = visibility(r);
  if (vis !== undefined) rec.visibility = vis;
  const t = preciseTemperature(r.temperatureC, r.remarks?.temperatureC);
  if (t !== undefined) rec.temperature = t;
  const cc = cloudCover(r);
  if (cc !== undefined) rec.cloudCover = cc;
  const p = r.remarks?.hourlyPrecipitationMm;
  if (p !== undefined) {
    rec.precipitation = p;
    rec.precipitationConvective = isConvective(r) ? p : 0;
  }
  return rec;
}
