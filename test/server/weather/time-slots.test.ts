/**
 * Slot dates and times in the point's zone, and which steps a request gets. Offsets are facts of
 * the tz database: Europe/Berlin moved from CET (+1) to CEST (+2) at 2013-03-31 01:00 UTC and back
 * at 2013-10-27 01:00 UTC; Asia/Kolkata is +5:30 all year; Australia/Lord_Howe is +10:30 / +11.
 */
import { describe, expect, it } from "vitest";
import { localDateTime, startOfLocalDay, timeSlots } from "../../../server/weather/time-slots.ts";

const labels = (slots: ReturnType<typeof timeSlots>): string[] => slots.map((s) => `${s.date} ${s.time}`);
const hours = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, k) => from + k);

describe("local dates and times", () => {
  it("across the spring DST change in Berlin: 01:00 then 03:00 (no 02:00 local)", () => {
    const slots = timeSlots("2013-03-30T22:00:00Z", hours(0, 4), "Europe/Berlin", Date.parse("2013-03-01T00:00:00Z"));
    expect(labels(slots)).toEqual(["2013-03-30 23:00", "2013-03-31 00:00", "2013-03-31 01:00", "2013-03-31 03:00", "2013-03-31 04:00"]);
  });

  it("across the autumn DST change in Berlin: 02:00 twice, one slot per model step", () => {
    const slots = timeSlots("2013-10-26T23:00:00Z", hours(0, 3), "Europe/Berlin", Date.parse("2013-10-01T00:00:00Z"));
    expect(labels(slots)).toEqual(["2013-10-27 01:00", "2013-10-27 02:00", "2013-10-27 02:00", "2013-10-27 03:00"]);
    expect(slots.map((s) => s.step)).toEqual([0, 1, 2, 3]);
  });

  it("half-hour zones: Kolkata +5:30, Lord Howe +11 in January", () => {
    expect(localDateTime("Asia/Kolkata", Date.parse("2011-10-11T00:00:00Z"))).toEqual({ date: "2011-10-11", time: "05:30" });
    expect(localDateTime("Australia/Lord_Howe", Date.parse("2026-01-15T13:00:00Z"))).toEqual({ date: "2026-01-16", time: "00:00" });
    expect(localDateTime("Australia/Lord_Howe", Date.parse("2026-07-15T13:00:00Z"))).toEqual({ date: "2026-07-15", time: "23:30" });
  });
});

describe("which steps", () => {
  const run = "2026-11-23T06:00:00Z";
  const steps = hours(0, 48);

  it("a run that reaches today starts at the local day's start (Madrid, UTC+1): earlier steps left out", () => {
    const now = Date.parse("2026-11-24T10:17:00Z"); // 11:17 in Madrid on the 24th
    const slots = timeSlots(run, steps, "Europe/Madrid", now);
    expect(startOfLocalDay("Europe/Madrid", now)).toBe(Date.parse("2026-11-23T23:00:00Z"));
    expect(labels(slots)[0]).toBe("2026-11-24 00:00");
    expect(slots[0]!.step).toBe(17);
    expect(slots).toHaveLength(32);
  });

  it("the same instant in Tokyo (UTC+9) is already the 24th there since 15:00 UTC on the 23rd", () => {
    const slots = timeSlots(run, steps, "Asia/Tokyo", Date.parse("2026-11-23T16:00:00Z"));
    expect(labels(slots)[0]).toBe("2026-11-24 00:00");
    expect(slots[0]!.step).toBe(9);
  });

  it("a run that ended before today gives every step with its own dates", () => {
    const slots = timeSlots(run, steps, "Europe/Madrid", Date.parse("2026-12-25T12:00:00Z"));
    expect(slots).toHaveLength(49);
    expect(labels(slots)[0]).toBe("2026-11-23 07:00");
  });
});
