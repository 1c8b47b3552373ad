/**
 * A decoded SYNOP to the spec's station observation record (units in datasets/stations/record.ts).
 * - wid: ww from 7wwW1W2 when iX is 1 or 4; wawa (iX = 7) mapped to the nearest ww.
 * - visibility: VV (code table 4377) in metres, lower bound of the class.
 * - cloudCover: N octas x 12.5 (N = 9, sky obscured, gives 100).
 * - cloudTypes: CL, CM, CH of 8NhCLCMCH; a member is absent when its figure is "/".
 * - precipitation: 6RRRtR of section 1, else of section 3 (period tR); 0 when iR = 3 (no
 *   precipitation); absent when iR = 4 or no group. precipitationConvective equals it when ww is
 *   80-99 (showers, thunderstorms) or past weather W1 is 8 or 9, else 0.
 */
import { octasToPercent, type StationObservationRecord } from "../../../datasets/stations/record.ts";
import { WAWA_TO_WW } from "./codes.ts";
import type { SynopReport } from "./types.ts";

function presentWw(r: SynopReport): number | undefined {
  if (r.presentWeather === undefined) return undefined;
  if (r.presentWeatherTable === "4680") return WAWA_TO_WW[r.presentWeather];
  return r.presentWeather;
}

export function synopToRecord(r: SynopReport, timestamp: number): StationObservationRecord {
  const rec: StationObservationRecord = { timestamp };
  const ww = presentWw(r);
  if (ww !== undefined) rec.wid = String(ww).padStart(2, "0");
  if (r.visibilityM !== undefined) rec.visibility = r.visibilityM;
  if (r.temperatureC !== undefined) rec.temperature = r.temperatureC;
  if (r.totalCloudOctas !== undefined) rec.cloudCover = octasToPercent(r.totalCloudOctas);
  if (r.cloudLow !== undefined || r.cloudMiddle !== undefined || r.cloudHigh !== undefined) {
    rec.cloudTypes = {};
    if (r.cloudHigh !== undefined) rec.cloudTypes.cloudHigh = r.cloudHigh;
    if (r.cloudMiddle !== undefined) rec.cloudTypes.cloudMiddle = r.cloudMiddle;
    if (r.cloudLow !== undefined) rec.cloudTypes.cloudLow = r.cloudLow;
  }
  let mm = r.precipitation?.mm ?? r.section3?.precipitation?.mm;
  if (mm === undefined && r.precipitationIndicator === 3) mm = 0;
  if (mm !== undefined) {
    rec.precipitation = mm;
    const w1 = r.pastWeather1; // 4561 and 4531 both use 8 = showers, 9 = thunderstorm
    const convective = (ww !== undefined && ww >= 80) || w1 === 8 || w1 === 9;
    rec.precipitationConvective = convective ? mm : 0;
  }
  return rec;
}
