/**
 * The `timezone` member of the administrative description: offset, DST flag, local time, and
 * sunrise/sunset at the point on the local day of the instant.
 */
import { formatLocalIso } from "./iso-local-time.ts";
import { sunEvents } from "./solar.ts";
import { localClock, standardOffsetMinutes, wallClockAsUtcMs } from "./zone-clock.ts";
import type { TimezoneWire } from "./wire-types.ts";

/** sunrise and sunset both say this when the sun stays above the horizon all day. */
export const POLAR_DAY = "polar-day";
/** sunrise and sunset both say this when the sun stays below the horizon all day. */
export const POLAR_NIGHT = "polar-night";

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** Local ISO time of an event instant, rounded to the minute, with the offset in force then. */
function formatEvent(zone: string, epochMs: number): string {
  const { clock, offsetMinutes } = localClock(zone, Math.round(epochMs / MINUTE_MS) * MINUTE_MS);
  return formatLocalIso(clock, offsetMinutes);
}

function sunTexts(zone: string, latitude: number, longitude: number, localMidnightMs: number): readonly [string, string] {
  const sun = sunEvents(latitude, longitude, localMidnightMs + 12 * HOUR_MS);
  return sun.kind === "rise-and-set"
    ? [formatEvent(zone, sun.sunriseMs), formatEvent(zone, sun.sunsetMs)]
    : sun.kind === "polar-day"
      ? [POLAR_DAY, POLAR_DAY]
      : [POLAR_NIGHT, POLAR_NIGHT];
}

/** What a zone's clock says in one whole second: the same for every point of the zone. */
interface ZoneSecond {
  wholeSecondMs: number;
  offset: number;
  isDST: 0 | 1;
  timeFormatted: string;
  /** The local day's midnight as a UTC instant. */
  localMidnightMs: number;
}

/**
 * Each zone's clock of the last second it was asked for (one entry a zone, about 400 at most): the
 * answers for different points of one zone within a second share it.
 */
const lastSecondOfZone = new Map<string, ZoneSecond>();

function sharedZoneSecond(zone: string, wholeSecondMs: number): ZoneSecond {
  const last = lastSecondOfZone.get(zone);
  if (last?.wholeSecondMs === wholeSecondMs) return last;
  const second = zoneSecond(zone, wholeSecondMs);
  lastSecondOfZone.set(zone, second);
  return second;
}

function zoneSecond(zone: string, wholeSecondMs: number): ZoneSecond {
  const { clock, offsetMinutes: offset } = localClock(zone, wholeSecondMs);
  const standard = standardOffsetMinutes(zone, clock.year);
  return {
    wholeSecondMs,
    offset,
    isDST: offset > standard ? 1 : 0,
    timeFormatted: formatLocalIso(clock, offset),
    localMidnightMs: wallClockAsUtcMs({ ...clock, hour: 0, minute: 0, second: 0 }) - offset * MINUTE_MS,
  };
}

/**
 * Throws RangeError for a timezone id the runtime does not know (the data is checked at load
 * time, so this is a bug, not bad input).
 */
export function describeTimezone(zone: string, latitude: number, longitude: number, instant: Date): TimezoneWire {
  return new TimezoneOfPoint(zone, latitude, longitude).at(instant);
}

/**
 * The timezone member of one point at any instant: what a kept answer (http/caching.ts) writes at
 * each hit. It remembers the sunrise and sunset of the last local day it was asked for, which are
 * most of a member's cost (the solar solution, about 5 µs) and change once a day. The zone's clock
 * of the second, which weather by id's current date and hour read too, is the zone's own
 * (sharedZoneSecond), the same for every point of it.
 */
export class TimezoneOfPoint {
  private sunDay = Number.NaN;
  private sun: readonly [string, string] = ["", ""];
  /** The member's JSON at the last whole second it was written for (json). */
  private text: { wholeSecondMs: number; json: string } | undefined;

  constructor(
    readonly zone: string,
    private readonly latitude: number,
    private readonly longitude: number,
  ) {}

  /** The zone's clock at the instant's whole second. */
  private clockAt(instant: Date): ZoneSecond {
    return sharedZoneSecond(this.zone, Math.floor(instant.getTime() / 1000) * 1000);
  }

  /** The local date (YYYY-MM-DD) and time (HH:MM) of the instant in the zone: timeFormatted's. */
  localDateAndMinute(instant: Date): { date: string; hour: string } {
    const { timeFormatted } = this.clockAt(instant);
    return { date: timeFormatted.slice(0, 10), hour: timeFormatted.slice(11, 16) };
  }

  /**
   * The member as JSON at the instant, remembered for its whole second: a kept answer's hits
   * (http/caching.ts) within one second write the same text.
   */
  json(instant: Date): string {
    const wholeSecondMs = Math.floor(instant.getTime() / 1000) * 1000;
    if (this.text?.wholeSecondMs !== wholeSecondMs) this.text = { wholeSecondMs, json: JSON.stringify(this.at(instant)) };
    return this.text.json;
  }

  at(instant: Date): TimezoneWire {
    const { wholeSecondMs, offset, isDST, timeFormatted, localMidnightMs } = this.clockAt(instant);
    if (localMidnightMs !== this.sunDay) {
      // The sun's transit nearest to the local day's midday is the day's noon (sunTexts).
      this.sun = sunTexts(this.zone, this.latitude, this.longitude, localMidnightMs);
      this.sunDay = localMidnightMs;
    }
    const [sunrise, sunset] = this.sun;
    return {
      timezone: this.zone,
      GMT: offset,
      UNIXTimestamp: wholeSecondMs / 1000,
      isDST,
      timeFormatted,
      sunrise,
      sunset,
    };
  }
}
