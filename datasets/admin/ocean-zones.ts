/**
 * The timezone of open sea: timezone-boundary-builder's ocean zones are 15° longitude bands
 * centred on multiples of 15°, named Etc/GMT-N east of Greenwich (the sign is POSIX-inverted:
 * Etc/GMT-12 is UTC+12). On a band edge (lon = 7.5 + 15k) the eastern band is returned, and at
 * ±180° Etc/GMT+12, as geo-tz does for the same release.
 */
export function oceanZone(lon: number): string {
  if (lon >= 180 || lon <= -180) return "Etc/GMT+12";
  const k = Math.min(12, Math.max(-12, Math.floor((lon + 7.5) / 15)));
  if (k === 0) return "Etc/GMT";
  return k > 0 ? `Etc/GMT-${k}` : `Etc/GMT+${-k}`;
}
