/**
 * The time slots of an answer: which steps of the run, and the local date (YYYY-MM-DD) and time
 * (HH:MM) of each in the point's timezone. One slot per model step, ascending.
 *
 * Steps: from the start of the current local day when the run reaches it (a live run: the past
 * hours of today stay visible, yesterday's do not); when the whole run ended before today (an old
 * run, like the 2011 samples of the embedded default), every step of the run with its own dates.
 */
import { offsetMs } from "../admin-description/zone-clock.ts";

const HOUR_MS = 3_600_000;

export interface TimeSlot {
  /** Index of the step in the run. */
  step: number;
  /** Valid time, ms since the epoch (UTC). */
  validMs: number;
  /** Local date YYYY-MM-DD. */
  date: string;
  /** Local time HH:MM. */
  time: string;
}

const two = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** Local YYYY-MM-DD and HH:MM of an instant in a zone. */
export function localDateTime(zone: string, epochMs: number): { date: string; time: string } {
  const local = new Date(epochMs + offsetMs(zone, epochMs));
  return {
    date: `${local.getUTCFullYear()}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())}`,
    time: `${two(local.getUTCHours())}:${two(local.getUTCMinutes())}`,
  };
}

/** The UTC instant at which the local date of `nowMs` began in `zone`. */
export function startOfLocalDay(zone: string, nowMs: number): number {
  const local = new Date(nowMs + offsetMs(zone, nowMs));
  const midnightAsUtc = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  // The offset in force at local midnight (a DST change happens at night, not at 00:00, in
  // every zone of the tz database but a few; those few are then off by the change, an hour).
  return midnightAsUtc - offsetMs(zone, midnightAsUtc - offsetMs(zone, nowMs));
}

/** The slots of a run for a point in `zone` at the request's instant. */
export function timeSlots(runTimeIso: string, stepsHours: readonly number[], zone: string, nowMs: number): TimeSlot[] {
  const runMs = Date.parse(runTimeIso);
  const dayStart = startOfLocalDay(zone, nowMs);
  const last = stepsHours.length > 0 ? runMs + stepsHours[stepsHours.length - 1]! * HOUR_MS : -Infinity;
  const from = last >= dayStart ? dayStart : -Infinity;
  const slots: TimeSlot[] = [];
  for (let k = 0; k < stepsHours.length; k++) {
    const validMs = runMs + stepsHours[k]! * HOUR_MS;
    if (validMs < from) continue;
    const { date, time } = localDateTime(zone, validMs);
    slots.push({ step: k, validMs, date, time });
  }
  return slots;
}
