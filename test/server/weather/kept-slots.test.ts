/**
 * The slot lists kept per run and zone (time-slots.ts): a point of the same zone on the same local
 * day gets the very list computed for the first, and the next local day a new one that starts at
 * that day's midnight. Madrid is UTC+1 in November (tz database): its 25th begins at
 * 2026-11-24T23:00Z; the run (0-71 h from 2026-11-23 06Z) reaches both days.
 */
import { describe, expect, it } from "vitest";
import { timeSlots } from "../../../server/weather/time-slots.ts";

const RUN = "2026-11-23T06:00:00Z";
const steps = Array.from({ length: 72 }, (_, k) => k);

describe("slot lists kept per run, zone and local day", () => {
  it("gives the same list within the local day and a new one from the next midnight", () => {
    const morning = timeSlots(RUN, steps, "Europe/Madrid", Date.parse("2026-11-24T08:00:00Z"));
    const evening = timeSlots(RUN, steps, "Europe/Madrid", Date.parse("2026-11-24T22:59:59Z"));
    expect(evening).toBe(morning);
    expect(morning[0]).toMatchObject({ date: "2026-11-24", time: "00:00", step: 17 });
    const next = timeSlots(RUN, steps, "Europe/Madrid", Date.parse("2026-11-24T23:00:00Z"));
    expect(next).not.toBe(morning);
    expect(next[0]).toMatchObject({ date: "2026-11-25", time: "00:00", step: 41 });
    // Another zone on the same instant has its own list (Lisbon: UTC+0, still the 24th).
    const lisbon = timeSlots(RUN, steps, "Europe/Lisbon", Date.parse("2026-11-24T23:00:00Z"));
    expect(lisbon[0]).toMatchObject({ date: "2026-11-24", time: "00:00", step: 18 });
  });

  it("equals the list computed afresh (another run object with the same steps)", () => {
    const now = Date.parse("2026-11-24T12:00:00Z");
    const kept = timeSlots(RUN, steps, "Asia/Kolkata", now);
    expect(timeSlots(RUN, [...steps], "Asia/Kolkata", now)).toEqual(kept);
  });
});
