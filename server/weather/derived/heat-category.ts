/**
 * The NWS heat-index categories of the spec's `heatIndex` member, applied to the heat index value
 * (not to the air temperature). NWS classification (NWS Tulsa, "Heat Index Information",
 * http://www.srh.noaa.gov/tsa/?n=heatindex): Caution 80–90 °F (27–32 °C), Extreme Caution
 * 90–105 °F (32–41 °C), Danger 105–129 °F (41–54 °C), Extreme Danger 130 °F or higher (54 °C or
 * higher). We use the published Celsius bounds, each lower bound inclusive:
 *   [27, 32) → "1/4", [32, 41) → "2/4", [41, 54) → "3/4", >= 54 → "4/4", below 27 or NaN → "".
 * The spec's sample value "1/2" is outside its own list and is never produced.
 */

export type HeatIndexCategory = "" | "1/4" | "2/4" | "3/4" | "4/4";

/** Lower bounds in °C of categories 1/4 to 4/4 (inclusive). */
export const HEAT_INDEX_CATEGORY_BOUNDS_C = [27, 32, 41, 54] as const;

/** The category of a heat index given in °C. */
export function heatIndexCategory(heatIndexC: number): HeatIndexCategory {
  const [quarter1, quarter2, quarter3, quarter4] = HEAT_INDEX_CATEGORY_BOUNDS_C;
  if (heatIndexC >= quarter4) return "4/4";
  if (heatIndexC >= quarter3) return "3/4";
  if (heatIndexC >= quarter2) return "2/4";
  if (heatIndexC >= quarter1) return "1/4";
  return ""; // below 27 °C, and NaN (every comparison with NaN is false)
}
