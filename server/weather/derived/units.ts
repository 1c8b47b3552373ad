/** Unit conversions and the one rounding rule of the weather answers. */

/**
 * Kelvin to degrees Celsius: T(°C) = T(K) − 273.15 (SI Brochure, 9th edition, BIPM 2019, §2.3.1:
 * the Celsius temperature is defined as the thermodynamic temperature minus 273.15 K).
 */
export function kelvinToC(k: number): number {
  return k - 273.15;
}

/** Pascal to hectopascal: 1 hPa = 100 Pa (SI prefix hecto = 10²). */
export function paToHpa(pa: number): number {
  return pa / 100;
}

/**
 * Round to one decimal, halves away from zero (1.25 → 1.3, −1.25 → −1.3), and never return −0
 * (−0.04 → 0, so JSON never shows "-0"). The half test is made on x × 10 in binary64, so a value
 * typed as 0.15 (stored as 0.1499…) still rounds to 0.2 as a reader expects. NaN and ±Infinity
 * pass through unchanged.
 */
export function round1(x: number): number {
  if (!Number.isFinite(x)) return x;
  const r = Math.round(Math.abs(x) * 10) / 10;
  if (r === 0) return 0;
  return x < 0 ? -r : r;
}
