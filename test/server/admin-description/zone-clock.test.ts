import { describe, expect, it } from "vitest";
import { clearOffsetCache, offsetMinutes, offsetMs, standardOffsetMinutes, wallClock } from "../../../server/admin-description/zone-clock.ts";

// Transition instants are tzdata facts: the EU switches at 01:00 UTC on the last Sunday of March
// (29 March 2026); Liberia moved from Monrovia Mean Time (−0:44:30) to GMT at local midnight of
// 7 January 1972, i.e. 00:44:30 UTC, which is inside a 15-minute cache slot.

describe("zone-clock: offsets cached per 15-minute slot stay exact", () => {
  it("Berlin switches to CEST at 01:00:00 UTC on 29 March 2026", () => {
    for (const order of [[0, 1], [1, 0]]) {
      clearOffsetCache();
      const instants = [Date.UTC(2026, 2, 29, 0, 59, 59), Date.UTC(2026, 2, 29, 1, 0, 0)];
      const results = new Map(order.map((k) => [k, offsetMinutes("Europe/Berlin", instants[k]!)]));
      expect(results.get(0)).toBe(60);
      expect(results.get(1)).toBe(120);
    }
    expect(wallClock("Europe/Berlin", Date.UTC(2026, 2, 29, 0, 59, 59))).toEqual({ year: 2026, month: 3, day: 29, hour: 1, minute: 59, second: 59 });
    expect(wallClock("Europe/Berlin", Date.UTC(2026, 2, 29, 1, 0, 0))).toEqual({ year: 2026, month: 3, day: 29, hour: 3, minute: 0, second: 0 });
  });

  it("Monrovia's 1972 change at 00:44:30 UTC, inside a slot, is exact to the second, cold or warm", () => {
    const before = Date.UTC(1972, 0, 7, 0, 44, 29);
    const after = Date.UTC(1972, 0, 7, 0, 44, 30);
    for (let pass = 0; pass < 2; pass++) {
      if (pass === 0) clearOffsetCache();
      expect(offsetMs("Africa/Monrovia", before)).toBe(-(44 * 60 + 30) * 1000);
      expect(offsetMs("Africa/Monrovia", after)).toBe(0);
      expect(wallClock("Africa/Monrovia", before)).toEqual({ year: 1972, month: 1, day: 6, hour: 23, minute: 59, second: 59 });
      expect(wallClock("Africa/Monrovia", after)).toEqual({ year: 1972, month: 1, day: 7, hour: 0, minute: 44, second: 30 });
    }
  });

  it("standard offset is the smaller solstice offset, north and south", () => {
    expect(standardOffsetMinutes("Europe/Berlin", 2026)).toBe(60);
    expect(standardOffsetMinutes("Australia/Sydney", 2026)).toBe(600);
    expect(standardOffsetMinutes("Australia/Lord_Howe", 2026)).toBe(630);
    expect(standardOffsetMinutes("Europe/Dublin", 2026)).toBe(0);
    expect(standardOffsetMinutes("America/Santiago", 2026)).toBe(-240);
  });
});

describe("zone-clock: every zone of the tz database, more zones than formatters are kept", () => {
  // The reference is ICU's own offset text ("GMT+05:45"), read through a formatter built
  // differently (timeZoneName "longOffset") and never shared with zone-clock.ts.
  const offsetText = (zone: string, epochMs: number): number => {
    const name = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" }).formatToParts(epochMs).find((p) => p.type === "timeZoneName")!.value;
    const m = /^GMT(?:([+-])(\d\d):(\d\d))?$/.exec(name);
    if (m === null) throw new Error(`unexpected offset text ${name} for ${zone}`);
    return m[1] === undefined ? 0 : (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  };
  it("reads each zone's offset in January and July, forwards then backwards, as ICU's offset text gives it", () => {
    const zones = Intl.supportedValuesOf("timeZone");
    expect(zones.length).toBeGreaterThan(300);
    const instants = [Date.UTC(2026, 0, 15, 12), Date.UTC(2026, 6, 15, 12)];
    for (const order of [zones, [...zones].reverse()]) {
      clearOffsetCache();
      for (const zone of order) for (const t of instants) expect([zone, offsetMinutes(zone, t)]).toEqual([zone, offsetText(zone, t)]);
    }
  });
});
