/**
 * The timezone facts of an Open-Meteo answer: one UTC offset for the whole answer (Open-Meteo's
 * utc_offset_seconds is the zone's offset at one instant, applied to every time), the zone's
 * abbreviation, and local time labels.
 */
import { isKnownTimeZone, offsetMs } from "../admin-description/zone-clock.ts";

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** True for an IANA id the runtime knows (GMT and UTC included). */
export function isValidZone(zone: string): boolean {
  return zone.length <= 64 && isKnownTimeZone(zone);
}

/** The zone's offset at an instant, ms east of UTC. */
export function zoneOffsetMs(zone: string, epochMs: number): number {
  return offsetMs(zone, epochMs);
}

const abbreviations = new Map<string, string>();

/**
 * The zone's short name at an instant as ICU gives it: the en-US name (EST, PDT), else the en-GB
 * one (CET, CEST, BST), else the offset form (GMT+5:30). Foundation, which Open-Meteo uses, has
 * its own table: a few names differ.
 */
export function zoneAbbreviation(zone: string, epochMs: number): string {
  const key = `${zone} ${offsetMs(zone, epochMs)}`;
  let name = abbreviations.get(key);
  if (name === undefined) {
    const short = (locale: string): string => new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: "short" }).formatToParts(epochMs).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
    name = short("en-US");
    if (/^GMT[+-]/.test(name)) {
      const gb = short("en-GB");
      if (!/^GMT[+-]/.test(gb) && !/^UTC[+-]/.test(gb)) name = gb;
    }
    if (abbreviations.size > 4096) abbreviations.clear();
    abbreviations.set(key, name);
  }
  return name;
}

const two = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** "YYYY-MM-DDTHH:MM" of an instant shifted by `offsetMs` (Open-Meteo's iso8601 time labels), or "YYYY-MM-DD". */
export function localLabel(epochMs: number, offset: number, dateOnly: boolean): string {
  const d = new Date(epochMs + offset);
  const date = `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
  return dateOnly ? date : `${date}T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}
