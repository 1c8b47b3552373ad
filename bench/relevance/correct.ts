/**
 * When an answer is right for a place of the outside gazetteer: it lies within 30 km of the
 * outside gazetteer's coordinates (great-circle distance on a sphere of 6,371 km) and has the
 * same ISO2 country code. The margin is wide because the two sources put a city's point in
 * different places (SimpleMaps' Porto lies 1.8 km from GeoNames' Porto; an urban area's centre
 * may be farther from the point GeoNames gives its main town).
 */

export const CORRECT_WITHIN_KM = 30;
const EARTH_RADIUS_KM = 6371;

export interface Located {
  lat: number;
  lon: number;
  /** ISO 3166-1 alpha-2. */
  cc: string;
}

const rad = (deg: number): number => (deg * Math.PI) / 180;

/** Great-circle distance in km (haversine). */
export function distanceKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function isCorrect(answer: Located, truth: Located): boolean {
  return answer.cc === truth.cc && distanceKm(answer, truth) <= CORRECT_WITHIN_KM;
}
