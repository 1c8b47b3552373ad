/**
 * Local times written as ISO 8601 / RFC 3339 with a numeric offset, e.g.
 * `2026-11-22T14:05:00+01:00`. UTC itself is written `+00:00` (never `Z`) so that every value has
 * the same shape.
 */
import type { WallClock } from "./zone-clock.ts";

const pad2 = (n: number): string => String(n).padStart(2, "0");

/** "+05:30", "-10:00", "+00:00" from minutes east of UTC. */
export function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

function formatYear(year: number): string {
  if (year >= 0 && year <= 9999) return String(year).padStart(4, "0");
  // ISO 8601 expanded years (not reachable for present-day instants, but never malformed).
  return (year < 0 ? "-" : "+") + String(Math.abs(year)).padStart(6, "0");
}

/** `YYYY-MM-DDTHH:MM:SS±HH:MM`. */
export function formatLocalIso(clock: WallClock, offsetMinutes: number): string {
  return `${formatYear(clock.year)}-${pad2(clock.month)}-${pad2(clock.day)}T${pad2(clock.hour)}:${pad2(clock.minute)}:${pad2(clock.second)}${formatOffset(offsetMinutes)}`;
}
