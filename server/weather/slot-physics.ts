/**
 * The physics of the slot's derived members, apart from how they are written: the standard
 * atmosphere's lapse rate (the 2 m temperature's correction to the point's height), the surface
 * pressure it gives, and the inversion flag.
 */

/** Standard atmosphere lapse rate, K per metre (ICAO: 6.5 K/km in the troposphere). */
export const LAPSE_RATE_K_PER_M = 0.0065;
/** From this temperature (°C) up, with a known humidity, the heat branch applies. */
export const HEAT_BRANCH_MIN_C = 26.7;

/** ISA surface pressure (Pa) at height h (m) from the mean-sea-level pressure (barometric formula). */
export function surfacePressurePa(mslPa: number, heightM: number): number {
  return mslPa * Math.pow(1 - (LAPSE_RATE_K_PER_M * heightM) / 288.15, 5.25588);
}

/**
 * 1 when the lowest stored pressure level above the model's surface (925 hPa, else 850 hPa) is
 * warmer than the model's 2 m air; 0 otherwise, also when no stored level lies above the surface
 * (high plateaus) or a value is missing. The surface pressure comes from the mean-sea-level
 * pressure and the model's surface height by the standard atmosphere.
 */
export function inversionFlag(t2mK: number, t925K: number, t850K: number, mslPa: number, surfaceHeightM: number): 0 | 1 {
  const height = surfaceHeightM === surfaceHeightM ? surfaceHeightM : 0;
  const ps = mslPa === mslPa ? surfacePressurePa(mslPa, height) : NaN;
  const level = ps > 92500 ? t925K : ps > 85000 ? t850K : NaN;
  return level === level && t2mK === t2mK && level > t2mK ? 1 : 0;
}
