/**
 * The `timezone` member of the administrative description: offset, DST flag, local time, and
 * sunrise/sunset at the point on the local day of the instant.
 */
import { formatLocalIso } from "./iso-local-time.ts";
import { sunEvents } from "./solar.ts";
import { offsetMinutes, standardOffsetMinutes, wallClock, wallClockAsUtcMs } from "./zone-clock.ts";
import type { TimezoneWire } from "./wire-types.ts";

/** sunrise and sunset both say this when the sun stays above the horizon all day. */
export const POLAR_DAY = "polar-day";
/** sunrise and sunset both say this when the sun stays below the horizon all day. */
export const POLAR_NIGHT = "polar-night";

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** Local ISO time of an event instant, rounded to the minute, with the offset in force then. */
function formatEvent(zone: string, epochMs: number): string {
  const rounded = Math.round(epochMs / MINUTE_MS) * MINUTE_MS;
  return formatLocalIso(wallClock(zone, rounded), offsetMinutes(zone, rounded));
}

export interface DescribeOptions {
  /**
   * Keep the sunrise and sunset texts per point and local day (a bounded table): for callers whose
   * points repeat (a place by id), where they were a tenth of a request's CPU. Reverse geocoding's
   * points rarely repeat, and would only churn the table.
   */
  reuseSunEvents?: boolean;
}

function sunTexts(zone: string, latitude: number, longitude: number, localMidnightMs: number): readonly [string, string] {
  const sun = sunEvents(latitude, longitude, localMidnightMs + 12 * HOUR_MS);
  return sun.kind === "rise-and-set"
    ? [formatEvent(zone, sun.sunriseMs), formatEvent(zone, sun.sunsetMs)]
    : sun.kind === "polar-day"
      ? [POLAR_DAY, POLAR_DAY]
      : [POLAR_NIGHT, POLAR_NIGHT];
}

/** Entries of the table below before it is emptied: about 200 bytes each, so at most ~3 MB. */
const KEPT_SUN_TEXTS_MAX = 16_384;
const sunTextsByPointAndDay = new Map<string, readonly [string, string]>();

function keptSunTexts(zone: string, latitude: number, longitude: number, localMidnightMs: number): readonly [string, string] {
  const key = `${zone} ${latitude} ${longitude} ${localMidnightMs}`;
  let texts = sunTextsByPointAndDay.get(key);
  if (texts === undefined) {
    texts = sunTexts(zone, latitude, longitude, localMidnightMs);
    if (sunTextsByPointAndDay.size >= KEPT_SUN_TEXTS_MAX) sunTextsByPointAndDay.clear();
    sunTextsByPointAndDay.set(key, texts);
  }
  return texts;
}

/**
 * Throws RangeError for a timezone id the runtime does not know (the data is checked at load
 * time, so this is a bug, not bad input).
 */
export function describeTimezone(zone: string, latitude: number, longitude: number, instant: Date, options: DescribeOptions = {}): TimezoneWire {
  const epochMs = instant.getTime();
  const wholeSecondMs = Math.floor(epochMs / 1000) * 1000;
  const clock = wallClock(zone, wholeSecondMs);
  const offset = offsetMinutes(zone, wholeSecondMs);
  const standard = standardOffsetMinutes(zone, clock.year);

  // The local day's midday as a UTC instant; the sun's transit nearest to it is the day's noon.
  const localMidnightMs = wallClockAsUtcMs({ ...clock, hour: 0, minute: 0, second: 0 }) - offset * MINUTE_MS;
  const [sunrise, sunset] = options.reuseSunEvents
    ? keptSunTexts(zone, latitude, longitude, localMidnightMs)
    : sunTexts(zone, latitude, longitude, localMidnightMs);

  return {
    timezone: zone,
    GMT: offset,
    UNIXTimestamp: wholeSecondMs / 1000,
    isDST: offset > standard ? 1 : 0,
    timeFormatted: formatLocalIso(clock, offset),
    sunrise,
    sunset,
  };
}
