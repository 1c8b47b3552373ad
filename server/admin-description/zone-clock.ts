/**
 * Wall-clock facts of an IANA timezone at an instant, from the runtime's ICU tz database through
 * `Intl.DateTimeFormat`. Formatters are costly to construct (~130 µs), so the recently used ones are kept.
 * `formatToParts` still costs ~6 µs, so offsets are cached per (zone, UTC day) and, on a day with a
 * transition, per (zone, 15-minute UTC slot): a day or slot is cached only when the offset at its
 * first and last second agree (tz transitions are days apart), so a cached answer is the exact one. Requests mostly ask about "now" and the
 * sunrise/sunset of today, which then hit the cache. The standard offset is cached per (zone, year).
 *
 * Offsets are in whole minutes east of UTC (+05:30 → 330, Chatham +12:45 → 765). POSIX-style
 * `Etc/GMT±N` ids have the inverted sign of their name: Etc/GMT-12 is UTC+12 (720), Etc/GMT+10
 * is UTC−10 (−600); ICU applies this itself.
 */

/** Local calendar date and time of day (month 1-12). */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const MINUTE_MS = 60_000;
/**
 * Formatters kept, the most recently used last. Each holds about 25 KB of ICU memory outside the
 * JavaScript heap (400 zones: 10 MiB in every worker), and one is read only when a zone's day is
 * not in the offset caches below: a few dozen cover the zones read in any one stretch.
 */
const FORMATTERS_KEPT = 48;
const formatters = new Map<string, Intl.DateTimeFormat>();
const standardOffsets = new Map<string, number>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (formatter !== undefined) {
    formatters.delete(zone);
    formatters.set(zone, formatter);
  } else {
    try {
      formatter = new Intl.DateTimeFormat("en-US", {
        timeZone: zone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
        era: "short",
      });
    } catch {
      throw new RangeError(`unknown IANA timezone: expected an id of the tz database, got ${JSON.stringify(zone)}`);
    }
    if (formatters.size >= FORMATTERS_KEPT) formatters.delete(formatters.keys().next().value!);
    formatters.set(zone, formatter);
  }
  return formatter;
}

/**
 * The runtime's canonical zone ids (CLDR's: "Asia/Calcutta", not "Asia/Kolkata"), read once: a
 * loader checking its data's 400-odd zones then builds formatters (25 KB of ICU memory each) only
 * for the other spellings.
 */
let canonicalZones: ReadonlySet<string> | undefined;

/** True when the runtime's tz database knows the id (for loaders to check their data once). */
export function isKnownTimeZone(zone: string): boolean {
  canonicalZones ??= new Set(Intl.supportedValuesOf("timeZone"));
  if (canonicalZones.has(zone)) return true;
  try {
    formatterOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock read from the formatter (whole seconds). */
function readWallClock(zone: string, epochMs: number): WallClock {
  const clock: WallClock = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  let bce = false;
  for (const part of formatterOf(zone).formatToParts(epochMs)) {
    switch (part.type) {
      case "year": clock.year = Number(part.value); break;
      case "month": clock.month = Number(part.value); break;
      case "day": clock.day = Number(part.value); break;
      case "hour": clock.hour = Number(part.value); break;
      case "minute": clock.minute = Number(part.value); break;
      case "second": clock.second = Number(part.value); break;
      case "era": bce = part.value.startsWith("B"); break;
      default: break;
    }
  }
  // Proleptic Gregorian years before 1 CE come out as era BC, year n: astronomical year 1 − n.
  if (bce) clock.year = 1 - clock.year;
  return clock;
}

/** The wall clock read as if it were UTC, in ms: the basis of offset arithmetic. */
export function wallClockAsUtcMs(clock: WallClock): number {
  const date = new Date(0);
  date.setUTCFullYear(clock.year, clock.month - 1, clock.day);
  date.setUTCHours(clock.hour, clock.minute, clock.second, 0);
  return date.getTime();
}

const wholeSecond = (epochMs: number): number => Math.floor(epochMs / 1000) * 1000;

/** Offset in ms (wall clock minus UTC) straight from the formatter. */
function readOffsetMs(zone: string, epochMs: number): number {
  const t = wholeSecond(epochMs);
  return wallClockAsUtcMs(readWallClock(zone, t)) - t;
}

const SLOT_MS = 15 * MINUTE_MS;
/** Slots kept per zone before that zone's cache is emptied (bounds memory: ~420 zones × this). */
const SLOTS_PER_ZONE = 256;
const offsetSlots = new Map<string, Map<number, number>>();

const DAY_MS = 86_400_000;
/** Days kept per zone before that zone's day cache is emptied (a forecast spans 16 days). */
const DAYS_PER_ZONE = 512;
const offsetDays = new Map<string, Map<number, number>>();

/**
 * UTC offset of `zone` at `epochMs` in ms east of UTC (a whole number of seconds). Cached per UTC
 * day when the offsets at the day's first and last second agree (no zone of the tz database
 * changes its offset twice within a day), else per 15-minute slot: a forecast's 209 hourly and
 * 3-hourly slots then cost two formatter reads a day instead of two a slot.
 */
export function offsetMs(zone: string, epochMs: number): number {
  const day = Math.floor(epochMs / DAY_MS);
  let days = offsetDays.get(zone);
  const known = days?.get(day);
  if (known !== undefined) return known;
  const dayFirst = readOffsetMs(zone, day * DAY_MS);
  if (dayFirst === readOffsetMs(zone, day * DAY_MS + DAY_MS - 1000)) {
    if (days === undefined || days.size >= DAYS_PER_ZONE) {
      days = new Map();
      offsetDays.set(zone, days);
    }
    days.set(day, dayFirst);
    return dayFirst;
  }
  return slotOffsetMs(zone, epochMs);
}

/** The offset on a day with a transition: cached per 15-minute slot without one. */
function slotOffsetMs(zone: string, epochMs: number): number {
  const slot = Math.floor(epochMs / SLOT_MS);
  let slots = offsetSlots.get(zone);
  const cached = slots?.get(slot);
  if (cached !== undefined) return cached;
  const first = readOffsetMs(zone, slot * SLOT_MS);
  const last = readOffsetMs(zone, slot * SLOT_MS + SLOT_MS - 1000);
  if (first !== last) return readOffsetMs(zone, epochMs); // a transition inside this slot
  if (slots === undefined || slots.size >= SLOTS_PER_ZONE) {
    slots = new Map();
    offsetSlots.set(zone, slots);
  }
  slots.set(slot, first);
  return first;
}

/** UTC offset of `zone` at `epochMs`, in whole minutes east of UTC. */
export function offsetMinutes(zone: string, epochMs: number): number {
  return Math.round(offsetMs(zone, epochMs) / MINUTE_MS);
}

/** The wall clock in `zone` at `epochMs` (milliseconds dropped). Throws RangeError for an unknown zone. */
export function wallClock(zone: string, epochMs: number): WallClock {
  return clockAt(epochMs, offsetMs(zone, epochMs));
}

/** The wall clock and the offset in whole minutes at `epochMs`, from one offset lookup. */
export function localClock(zone: string, epochMs: number): { clock: WallClock; offsetMinutes: number } {
  const offset = offsetMs(zone, epochMs);
  return { clock: clockAt(epochMs, offset), offsetMinutes: Math.round(offset / MINUTE_MS) };
}

function clockAt(epochMs: number, offset: number): WallClock {
  const local = new Date(wholeSecond(epochMs) + offset);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

/** Empties the offset caches (benches measure the cold path with it). */
export function clearOffsetCache(): void {
  offsetDays.clear();
  offsetSlots.clear();
  standardOffsets.clear();
}

/**
 * The zone's standard offset in `year`: the smaller of its offsets at the two solstices (21 June
 * and 21 December, 12:00 UTC). DST always adds to the standard offset in the sense clocks use
 * (northern summer, southern summer, Lord Howe's +30 min), so the smaller one is standard time.
 * This also reads Europe/Dublin the way people do (GMT in winter, summer time IST) although
 * tzdata models Irish winter time as a negative DST; and Morocco's Ramadan hour (UTC+0 within
 * a UTC+1 year) counts as not DST. A zone that changes its standard offset within a year counts
 * the larger one as DST for the rest of that year.
 */
export function standardOffsetMinutes(zone: string, year: number): number {
  const key = `${zone}\u0000${year}`;
  let standard = standardOffsets.get(key);
  if (standard === undefined) {
    const june = new Date(0);
    june.setUTCFullYear(year, 5, 21);
    june.setUTCHours(12, 0, 0, 0);
    const december = new Date(0);
    december.setUTCFullYear(year, 11, 21);
    december.setUTCHours(12, 0, 0, 0);
    standard = Math.round(Math.min(readOffsetMs(zone, june.getTime()), readOffsetMs(zone, december.getTime())) / MINUTE_MS);
    standardOffsets.set(key, standard);
  }
  return standard;
}
