/**
 * METAR and SYNOP give only day, hour and minute. The year and month come from outside the report:
 * a reference instant taken from the source (aviationweather CSV `observed_utc`, a NOAA date line
 * `YYYY/MM/DD HH:MM`, a date in the file name) or from the command line. Without one the report is
 * undated: stored as such and never given a guessed timestamp.
 */

/** What is known of when a report was issued. */
export interface ReferenceDate {
  year: number;
  /** 1-12. */
  month: number;
  /** The instant (UNIX seconds) the reference stands for, when a day is known too. */
  instant?: number;
  /** Where it came from, for the metadata ("file name", "CSV observed_utc", "--month"). */
  origin: string;
}

const DAY_S = 86_400;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * UNIX seconds of day/hour/minute in the reference's month. With a reference instant, a report
 * dated more than a day after it belongs to the previous month (a bulletin filed on the 1st
 * carrying reports of the 31st). Undefined when the day does not exist in that month.
 */
export function resolveTimestamp(ref: ReferenceDate, day: number, hour: number, minute: number): number | undefined {
  let year = ref.year;
  let month = ref.month;
  if (ref.instant !== undefined) {
    const candidate = Date.UTC(year, month - 1, day, hour, minute) / 1000;
    if (day <= daysInMonth(year, month) && candidate <= ref.instant + DAY_S) return candidate;
    month -= 1;
    if (month === 0) {
      month = 12;
      year -= 1;
    }
  }
  if (day < 1 || day > daysInMonth(year, month)) return undefined;
  return Date.UTC(year, month - 1, day, hour, minute) / 1000;
}

const RE_FULL = /(?:^|[^0-9])(20\d\d)(0[1-9]|1[0-2])([0-2]\d|3[01])(?:([01]\d|2[0-3])([0-5]\d)(?:[0-5]\d)?)?(?![0-9])/;
const RE_DASHED = /(?:^|[^0-9])(20\d\d)-(0[1-9]|1[0-2])(?:-([0-2]\d|3[01]))?(?![0-9])/;

/**
 * A reference date from a file name: `..._20230117174401_...` (DWD/WMO file names: filing time),
 * `...-2025-09-09_12...`, `...-2026-03_...` (month only).
 */
export function referenceFromFileName(name: string): ReferenceDate | undefined {
  let m = RE_FULL.exec(name);
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const h = m[4] !== undefined ? Number(m[4]) : 23;
    const mi = m[5] !== undefined ? Number(m[5]) : 59;
    return { year: y, month: mo, instant: Date.UTC(y, mo - 1, d, h, mi) / 1000, origin: "file name" };
  }
  m = RE_DASHED.exec(name);
  if (m) {
    const [y, mo] = [Number(m[1]), Number(m[2])];
    if (m[3] === undefined) return { year: y, month: mo, origin: "file name" };
    return { year: y, month: mo, instant: Date.UTC(y, mo - 1, Number(m[3]), 23, 59) / 1000, origin: "file name" };
  }
  return undefined;
}

/** `YYYY-MM` or `YYYY-MM-DD` from the command line. */
export function parseReferenceOption(value: string): ReferenceDate | undefined {
  const m = /^(\d{4})-(0[1-9]|1[0-2])(?:-([0-2]\d|3[01]))?$/.exec(value);
  if (!m) return undefined;
  const [y, mo] = [Number(m[1]), Number(m[2])];
  if (m[3] === undefined) return { year: y, month: mo, origin: "--month" };
  return { year: y, month: mo, instant: Date.UTC(y, mo - 1, Number(m[3]), 23, 59) / 1000, origin: "--month" };
}

/** `2025-09-09 14:51:00` (CSV) or `2025/09/09 14:51` (NOAA station files) to a reference. */
export function referenceFromDateTime(text: string, origin: string): ReferenceDate | undefined {
  const m = /^(\d{4})[-/](\d{2})[-/](\d{2})[ T](\d{2}):(\d{2})/.exec(text.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])];
  if (mo < 1 || mo > 12) return undefined;
  return { year: y, month: mo, instant: Date.UTC(y, mo - 1, d, h, mi) / 1000, origin };
}
