/**
 * The zone of a place whose GeoNames record has no (known) timezone: the nautical zone of its
 * longitude, `Etc/GMT±N` with N = round(lon / 15). IANA's Etc zones have inverted signs:
 * Etc/GMT-1 is UTC+01:00.
 */
export function nauticalZone(lon: number): string {
  const hours = Math.max(-12, Math.min(12, Math.round(lon / 15)));
  if (hours === 0) return "Etc/GMT";
  return hours > 0 ? `Etc/GMT-${hours}` : `Etc/GMT+${-hours}`;
}
