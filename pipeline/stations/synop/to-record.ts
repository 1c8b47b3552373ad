/**
 * A decoded SYNOP to the spec's station observation record (units in datasets/stations/record.ts).
 * - wid: ww from 7wwW1W2 when iX is 1 or 4; wawa (iX = 7) mapped to the nearest ww.
 * - visibility: VV (code table 4377) in metres, lower bound of the class.
 * - cloudCover: N octas x 12.5 (N = 9, sky obscured, gives 100).
 * - cloudTypes: CL, CM, CH of 8NhCLCMCH; a member is absent when its figure is "/".
 * - precipitation: where iR (code table 1819) says it is: iR = 1 the 6RRRtR of section 1, iR = 2
 *   that of section 3, iR = 0 (both sections) section 1's, else section 3's; iR = 3 (omitted,
 *   amount = 0) gives 0 and iR = 4 (omitted, not available) nothing, whatever group is written;
 *   without iR (iRiXhVV omitted) section 1's, else section 3's. precipitationConvective equals
 *   it when ww is 80-99 (showers, thunderstorms) or past weather W1 is 8 or 9, else 0.
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
  const mm = precipitationMm(r);
  if (mm !== undefined) {
    rec.precipitation = mm;
    const w1 = r.pastWeather1; // 4561 and 4531 both use 8 = showers, 9 = thunderstorm
    const convective = (ww !== undefined && ww >= 80) || w1 === 8 || w1 === 9;
    rec.precipitationConvective = convective ? mm : 0;
  }
  return rec;
}

/** The amount iR (code table 1819) points at: 0 both sections, 1 section 1, 2 section 3, 3 none fell, 4 not measured. */
function precipitationMm(r: SynopReport): number | undefined {
  const section1 = r.precipitation?.mm;
  const section3 = r.section3?.precipitation?.mm;
  switch (r.precipitationIndicator) {
    case 1:
      return section1;
    case 2:
      return section3;
    case 3:
      return 0;
    case 4:
      return undefined;
    default:
      return section1 ?? section3;
  }
}
