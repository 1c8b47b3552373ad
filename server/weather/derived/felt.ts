/**
 * Felt ("feels like") temperature: NWS wind chill in the cold, NWS heat index in the heat.
 * Both formulas are defined in °F and mph; these functions take and return °C and km/h (or m/s)
 * and convert exactly (°F = °C × 9/5 + 32, 1 mph = 1.609344 km/h).
 */

const KMH_PER_MPH = 1.609344; // international mile (1959): 1 mi = 1609.344 m

const cToF = (c: number): number => (c * 9) / 5 + 32;
const fToC = (f: number): number => ((f - 32) * 5) / 9;

/**
 * NWS Wind Chill Temperature index (in use since 1 November 2001), in °C.
 * WCT(°F) = 35.74 + 0.6215 T − 35.75 V^0.16 + 0.4275 T V^0.16, T in °F, V in mph at 10 m
 * (NWS Wind Chill Chart, https://www.weather.gov/safety/cold-wind-chill-chart).
 * Defined for T <= 50 °F (10 °C) and V > 3 mph (4.8 km/h); outside that range the number is
 * still computed (the caller, `feltTemperatureC`, applies the range). Inputs in °C and km/h.
 */
export function windChillC(tempC: number, windKmh: number): number {
  const t = cToF(tempC);
  const v16 = Math.pow(windKmh / KMH_PER_MPH, 0.16);
  return fToC(35.74 + 0.6215 * t - 35.75 * v16 + 0.4275 * t * v16);
}

/**
 * NWS heat index in °C, from the air temperature in °C and the relative humidity in %.
 * Source: NWS Weather Prediction Center, "The Heat Index Equation",
 * https://www.wpc.ncep.noaa.gov/html/heatindex_equation.shtml (Rothfusz 1990, NWS SR 90-23):
 * 1. The simple formula HI = 0.5 × (T + 61.0 + (T − 68.0) × 1.2 + RH × 0.094) (T in °F). It is
 *    itself the average of T and 61 + (T − 68) × 1.2 + RH × 0.094, which is how the NWS online
 *    calculator computes it (Anderson, Bell & Peng 2013, Environ. Health Perspect. 121:1111,
 *    which ports that calculator's source); so the "averaged with the temperature" of the page is
 *    this value and is not averaged a second time.
 * 2. If it is >= 80 °F: the Rothfusz regression, then
 *    − [(13 − RH) / 4] × sqrt((17 − |T − 95|) / 17) when RH < 13 % and 80 <= T <= 112 °F,
 *    + [(RH − 85) / 10] × [(87 − T) / 5] when RH > 85 % and 80 <= T <= 87 °F.
 * NaN in either input gives NaN.
 */
export function heatIndexC(tempC: number, rhPercent: number): number {
  const t = cToF(tempC);
  const rh = rhPercent;
  const simple = 0.5 * (t + 61.0 + (t - 68.0) * 1.2 + rh * 0.094);
  if (!(simple >= 80)) return fToC(simple); // also NaN → NaN
  let hi =
    -42.379 +
    2.04901523 * t +
    10.14333127 * rh -
    0.22475541 * t * rh -
    0.00683783 * t * t -
    0.05481717 * rh * rh +
    0.00122874 * t * t * rh +
    0.00085282 * t * rh * rh -
    0.00000199 * t * t * rh * rh;
  if (rh < 13 && t >= 80 && t <= 112) {
    hi -= ((13 - rh) / 4) * Math.sqrt((17 - Math.abs(t - 95)) / 17);
  } else if (rh > 85 && t >= 80 && t <= 87) {
    hi += ((rh - 85) / 10) * ((87 - t) / 5);
  }
  return fToC(hi);
}

/** Wind chill applies at or below 10 °C (50 °F) ... */
const WIND_CHILL_MAX_C = 10;
/** ... and above 4.8 km/h (3 mph), the NWS chart's range. */
const WIND_CHILL_MIN_KMH = 4.8;
/** Heat index applies from 26.7 °C (80 °F), the lowest temperature of the NWS chart. */
const HEAT_INDEX_MIN_C = 26.7;

/**
 * The felt temperature of a time slot in °C, with the wind in m/s at 10 m and the relative
 * humidity in %:
 * - T <= 10 °C and wind > 4.8 km/h: `windChillC`;
 * - T >= 26.7 °C: `heatIndexC`, or T when the humidity is missing (NaN): no humidity, no heat index;
 * - otherwise (and in the cold with a missing wind) T itself.
 * A missing temperature (NaN) gives NaN.
 */
export function feltTemperatureC(tempC: number, windMs: number, rhPercent: number): number {
  if (tempC <= WIND_CHILL_MAX_C) {
    const windKmh = windMs * 3.6;
    return windKmh > WIND_CHILL_MIN_KMH ? windChillC(tempC, windKmh) : tempC;
  }
  if (tempC >= HEAT_INDEX_MIN_C) {
    return Number.isNaN(rhPercent) ? tempC : heatIndexC(tempC, rhPercent);
  }
  return tempC;
}
