import { describe, expect, it } from "vitest";
import { describeTimezone, POLAR_DAY, POLAR_NIGHT, TimezoneOfPoint } from "../../../server/admin-description/describe-timezone.ts";
import { isKnownTimeZone } from "../../../server/admin-description/zone-clock.ts";

// Offsets and DST rules are facts of the tz database (and of the countries' laws); sunrise and
// sunset references are published values cited beside each case.

const at = (iso: string): Date => new Date(iso);
const MINUTE_MS = 60_000;
/** The local date and minute of the instant in a zone, asked of a new point (nothing remembered but the zone's clock of that second). */
const localDateAndMinute = (zone: string, instant: Date) => new TimezoneOfPoint(zone, 0, 0).localDateAndMinute(instant);

/** Minutes between a produced local ISO time and a published local wall-clock time. */
function minutesOff(produced: string, publishedLocal: string): number {
  return Math.abs(Date.parse(produced) - Date.parse(publishedLocal)) / MINUTE_MS;
}

describe("describeTimezone: offsets in minutes east of UTC, and DST", () => {
  it("Chatham Islands: +12:45 standard (765), +13:45 in the southern summer", () => {
    const winter = describeTimezone("Pacific/Chatham", -43.95, -176.56, at("2026-07-01T00:00:00Z"));
    expect(winter.GMT).toBe(765);
    expect(winter.isDST).toBe(0);
    expect(winter.timeFormatted).toBe("2026-07-01T12:45:00+12:45");
    const summer = describeTimezone("Pacific/Chatham", -43.95, -176.56, at("2026-01-01T00:00:00Z"));
    expect(summer.GMT).toBe(825);
    expect(summer.isDST).toBe(1);
  });

  it("Lord Howe Island: half-hour DST, +11:00 in January and +10:30 standard in July", () => {
    const january = describeTimezone("Australia/Lord_Howe", -31.55, 159.08, at("2026-01-15T00:00:00Z"));
    expect(january.GMT).toBe(660);
    expect(january.isDST).toBe(1);
    const july = describeTimezone("Australia/Lord_Howe", -31.55, 159.08, at("2026-07-15T00:00:00Z"));
    expect(july.GMT).toBe(630);
    expect(july.isDST).toBe(0);
    expect(july.timeFormatted).toBe("2026-07-15T10:30:00+10:30");
  });

  it("Kolkata: +05:30 all year, no DST", () => {
    for (const iso of ["2026-01-15T00:00:00Z", "2026-07-15T00:00:00Z"]) {
      const tz = describeTimezone("Asia/Kolkata", 22.57, 88.36, at(iso));
      expect(tz.GMT).toBe(330);
      expect(tz.isDST).toBe(0);
    }
  });

  it("Kathmandu: +05:45", () => {
    expect(describeTimezone("Asia/Kathmandu", 27.7, 85.32, at("2026-03-01T00:00:00Z")).GMT).toBe(345);
  });

  it("Etc/GMT+10 at sea is UTC-10 (POSIX sign inversion), Etc/GMT-12 is UTC+12", () => {
    const west = describeTimezone("Etc/GMT+10", 0, -150, at("2026-06-21T12:00:00Z"));
    expect(west.GMT).toBe(-600);
    expect(west.isDST).toBe(0);
    expect(west.timeFormatted).toBe("2026-06-21T02:00:00-10:00");
    const east = describeTimezone("Etc/GMT-12", 0, 175, at("2026-06-21T12:00:00Z"));
    expect(east.GMT).toBe(720);
    expect(east.timeFormatted).toBe("2026-06-22T00:00:00+12:00");
  });

  it("Dublin: summer time IST is DST (isDST 1) despite tzdata's negative-DST model; winter GMT is not", () => {
    const summer = describeTimezone("Europe/Dublin", 53.35, -6.26, at("2026-07-01T12:00:00Z"));
    expect(summer.GMT).toBe(60);
    expect(summer.isDST).toBe(1);
    const winter = describeTimezone("Europe/Dublin", 53.35, -6.26, at("2026-01-01T12:00:00Z"));
    expect(winter.GMT).toBe(0);
    expect(winter.isDST).toBe(0);
    expect(winter.timeFormatted).toBe("2026-01-01T12:00:00+00:00");
  });

  it("Sydney: DST in the southern summer (January), standard +10:00 in July", () => {
    const january = describeTimezone("Australia/Sydney", -33.87, 151.21, at("2026-01-15T12:00:00Z"));
    expect(january.GMT).toBe(660);
    expect(january.isDST).toBe(1);
    const july = describeTimezone("Australia/Sydney", -33.87, 151.21, at("2026-07-15T12:00:00Z"));
    expect(july.GMT).toBe(600);
    expect(july.isDST).toBe(0);
  });

  it("Berlin: CET in November, CEST in summer; local time and UNIX seconds of the instant", () => {
    const november = describeTimezone("Europe/Berlin", 52.52, 13.405, at("2026-11-22T13:05:00.750Z"));
    expect(november.GMT).toBe(60);
    expect(november.isDST).toBe(0);
    expect(november.timeFormatted).toBe("2026-11-22T14:05:00+01:00");
    // 1970-01-01 to 2026-01-01: 56 years of 365 days + 14 leap days (1972..2024); then 325 days
    // (Jan..Oct = 304, plus 21) to 22 November; then 13:05:00. The instant's 750 ms are dropped.
    expect(november.UNIXTimestamp).toBe((56 * 365 + 14 + 325) * 86400 + 13 * 3600 + 5 * 60);
    expect(Number.isInteger(november.UNIXTimestamp)).toBe(true);
    const july = describeTimezone("Europe/Berlin", 52.52, 13.405, at("2026-07-01T12:00:00Z"));
    expect(july.GMT).toBe(120);
    expect(july.isDST).toBe(1);
  });

  it("second by second across the EU spring change (last Sunday of March, 01:00 UTC), in one zone and two", () => {
    // Directive 2000/84/EC: summer time begins at 01:00 UTC on the last Sunday of March (29 March 2026).
    const seconds = ["2026-03-29T00:59:58Z", "2026-03-29T00:59:59Z", "2026-03-29T01:00:00Z", "2026-03-29T01:00:01Z"];
    const expected = [
      ["2026-03-29T01:59:58+01:00", 60, 0],
      ["2026-03-29T01:59:59+01:00", 60, 0],
      ["2026-03-29T03:00:00+02:00", 120, 1],
      ["2026-03-29T03:00:01+02:00", 120, 1],
    ];
    for (let i = 0; i < seconds.length; i++) {
      // The same second asked again, and another zone in between: each answer is its own second's.
      for (let repeat = 0; repeat < 2; repeat++) {
        const berlin = describeTimezone("Europe/Berlin", 52.52, 13.405, at(seconds[i]!));
        expect([berlin.timeFormatted, berlin.GMT, berlin.isDST]).toEqual(expected[i]);
        expect(berlin.UNIXTimestamp).toBe(Date.parse(seconds[i]!) / 1000);
        // Kolkata: +05:30 all year.
        expect(describeTimezone("Asia/Kolkata", 28.61, 77.21, at(seconds[i]!)).timeFormatted).toBe(new Date(Date.parse(seconds[i]!) + 330 * MINUTE_MS).toISOString().slice(0, 19) + "+05:30");
      }
    }
    // And back to an earlier second (a clock set back): not the later second kept.
    expect(describeTimezone("Europe/Berlin", 52.52, 13.405, at(seconds[0]!)).timeFormatted).toBe(expected[0]![0]);
  });

  it("one point asked again and again (a kept answer's timezone member): each instant's own local day, across midnight and back", () => {
    const berlin = new TimezoneOfPoint("Europe/Berlin", 52.52, 13.405);
    // Local midnight of 23 November 2026 is 23:00 UTC on the 22nd (+01:00).
    const instants = ["2026-11-22T12:00:00Z", "2026-11-22T22:59:59Z", "2026-11-22T23:00:00Z", "2026-11-23T12:00:00Z", "2026-11-22T22:59:59Z", "2026-03-29T00:59:59Z", "2026-03-29T01:00:00Z"];
    const seen = instants.map((iso) => berlin.at(at(iso)));
    for (let i = 0; i < instants.length; i++) expect(seen[i], instants[i]).toEqual(describeTimezone("Europe/Berlin", 52.52, 13.405, at(instants[i]!)));
    // weather.current reads the same clock: each instant's own minute, the second remembered or not.
    for (const iso of [...instants, instants[0]!]) expect(berlin.localDateAndMinute(at(iso)), iso).toEqual(localDateAndMinute("Europe/Berlin", at(iso)));
    expect(berlin.localDateAndMinute(at("2026-11-22T22:59:59Z"))).toEqual({ date: "2026-11-22", hour: "23:59" });
    // Two local days: the sunrise moved on at local midnight (a later one, near the winter solstice), and came back.
    expect(seen[2]!.sunrise.slice(0, 10)).toBe("2026-11-23");
    expect(seen[1]!.sunrise.slice(0, 10)).toBe("2026-11-22");
    expect(seen[4]!.sunrise).toBe(seen[1]!.sunrise);
  });

  it("the member as JSON (a kept answer's hits): each whole second's own, within a second the same, and back to an earlier second", () => {
    const berlin = new TimezoneOfPoint("Europe/Berlin", 52.52, 13.405);
    const instants = ["2026-11-22T22:59:59.000Z", "2026-11-22T22:59:59.999Z", "2026-11-22T23:00:00.000Z", "2026-03-29T00:59:59.500Z", "2026-03-29T01:00:00.000Z", "2026-11-22T22:59:59.250Z"];
    for (const iso of instants) {
      const member = JSON.parse(berlin.json(at(iso))) as { UNIXTimestamp: number };
      expect(member, iso).toEqual(describeTimezone("Europe/Berlin", 52.52, 13.405, at(iso)));
      expect(member.UNIXTimestamp).toBe(Math.floor(Date.parse(iso) / 1000));
    }
    // The DST change (01:00 UTC on 29 March 2026): +01:00 before, +02:00 from that second.
    expect(JSON.parse(berlin.json(at("2026-03-29T00:59:59.999Z"))).timeFormatted).toBe("2026-03-29T01:59:59+01:00");
    expect(JSON.parse(berlin.json(at("2026-03-29T01:00:00.000Z"))).timeFormatted).toBe("2026-03-29T03:00:00+02:00");
  });

  it("points of one zone within a second share its clock; other zones and seconds get their own", () => {
    // Europe/Berlin keeps CET (UTC+1) in winter; Asia/Kolkata is UTC+05:30 all year (tz database).
    const berlin = new TimezoneOfPoint("Europe/Berlin", 52.52, 13.405).at(at("2026-11-30T12:00:00.250Z"));
    expect(berlin).toMatchObject({ GMT: 60, isDST: 0, timeFormatted: "2026-11-30T13:00:00+01:00" });
    const potsdam = new TimezoneOfPoint("Europe/Berlin", 52.39, 13.06).at(at("2026-11-30T12:00:00.900Z"));
    expect(potsdam).toMatchObject({ GMT: 60, timeFormatted: "2026-11-30T13:00:00+01:00", UNIXTimestamp: berlin.UNIXTimestamp });
    const kolkata = new TimezoneOfPoint("Asia/Kolkata", 22.57, 88.36).at(at("2026-11-30T12:00:00.500Z"));
    expect(kolkata).toMatchObject({ GMT: 330, isDST: 0, timeFormatted: "2026-11-30T17:30:00+05:30" });
    expect(new TimezoneOfPoint("Europe/Berlin", 50.94, 6.96).at(at("2026-11-30T12:00:01Z")).timeFormatted).toBe("2026-11-30T13:00:01+01:00");
    // Back to the earlier second, and across the DST change of 29 March 2026 (01:00 UTC).
    expect(new TimezoneOfPoint("Europe/Berlin", 48.14, 11.58).at(at("2026-11-30T12:00:00Z")).timeFormatted).toBe("2026-11-30T13:00:00+01:00");
    expect(new TimezoneOfPoint("Europe/Berlin", 48.14, 11.58).at(at("2026-03-29T00:59:59Z")).timeFormatted).toBe("2026-03-29T01:59:59+01:00");
    expect(new TimezoneOfPoint("Europe/Berlin", 52.52, 13.405).at(at("2026-03-29T01:00:00Z"))).toMatchObject({ GMT: 120, isDST: 1, timeFormatted: "2026-03-29T03:00:00+02:00" });
  });

  it("local date and minute (weather by id's current): Kolkata +05:30, Lord Howe +11:00 in January and +10:30 in July", () => {
    expect(localDateAndMinute("Asia/Kolkata", at("2011-10-11T00:00:00Z"))).toEqual({ date: "2011-10-11", hour: "05:30" });
    // The minute is the one the instant is in, not rounded.
    expect(localDateAndMinute("Asia/Kolkata", at("2011-10-11T00:00:59.999Z"))).toEqual({ date: "2011-10-11", hour: "05:30" });
    expect(localDateAndMinute("Australia/Lord_Howe", at("2026-01-15T13:00:00Z"))).toEqual({ date: "2026-01-16", hour: "00:00" });
    expect(localDateAndMinute("Australia/Lord_Howe", at("2026-07-15T13:00:00Z"))).toEqual({ date: "2026-07-15", hour: "23:30" });
  });

  it("knows real zone ids and refuses unknown ones with a RangeError", () => {
    expect(isKnownTimeZone("Europe/Vaduz")).toBe(true);
    expect(isKnownTimeZone("Etc/GMT-14")).toBe(true);
    expect(isKnownTimeZone("Mars/Olympus_Mons")).toBe(false);
    // The tz database's names beside ICU's canonical ones (CLDR keeps "Asia/Calcutta" and
    // "Europe/Kiev"; GeoNames writes "Asia/Kolkata" and "Europe/Kyiv"), and an empty id.
    for (const zone of ["Asia/Kolkata", "Asia/Calcutta", "Europe/Kyiv", "Europe/Kiev", "UTC", "America/Argentina/Buenos_Aires"]) expect([zone, isKnownTimeZone(zone)]).toEqual([zone, true]);
    expect(isKnownTimeZone("")).toBe(false);
    expect(() => describeTimezone("Mars/Olympus_Mons", 0, 0, new Date())).toThrow(RangeError);
  });
});

describe("describeTimezone: sunrise and sunset on the local day (NOAA, zenith 90.833°)", () => {
  it("Berlin, winter solstice 2024: 08:14:38 and 15:54:41 CET (Stiftung Planetarium Berlin)", () => {
    const tz = describeTimezone("Europe/Berlin", 52.52, 13.405, at("2024-12-21T11:00:00Z"));
    expect(tz.sunrise).toMatch(/^2024-12-21T08:1\d:00\+01:00$/);
    expect(minutesOff(tz.sunrise, "2024-12-21T08:14:38+01:00")).toBeLessThanOrEqual(2);
    expect(minutesOff(tz.sunset, "2024-12-21T15:54:41+01:00")).toBeLessThanOrEqual(2);
  });

  it("Berlin, summer solstice 2019: 04:43 and 21:33 CEST (published for 21 June 2019)", () => {
    const tz = describeTimezone("Europe/Berlin", 52.52, 13.405, at("2019-06-21T10:00:00Z"));
    expect(minutesOff(tz.sunrise, "2019-06-21T04:43:00+02:00")).toBeLessThanOrEqual(2);
    expect(minutesOff(tz.sunset, "2019-06-21T21:33:00+02:00")).toBeLessThanOrEqual(2);
    expect(tz.sunset.endsWith("+02:00")).toBe(true);
  });

  it("Sydney and Darwin, 22 December 2023: 05:41/20:06 AEDT and 06:19/19:11 ACST (as published)", () => {
    const sydney = describeTimezone("Australia/Sydney", -33.8688, 151.2093, at("2023-12-22T01:00:00Z"));
    expect(minutesOff(sydney.sunrise, "2023-12-22T05:41:00+11:00")).toBeLessThanOrEqual(2);
    expect(minutesOff(sydney.sunset, "2023-12-22T20:06:00+11:00")).toBeLessThanOrEqual(2);
    const darwin = describeTimezone("Australia/Darwin", -12.4634, 130.8456, at("2023-12-22T01:00:00Z"));
    expect(darwin.sunrise.endsWith("+09:30")).toBe(true);
    expect(minutesOff(darwin.sunrise, "2023-12-22T06:19:00+09:30")).toBeLessThanOrEqual(2);
    expect(minutesOff(darwin.sunset, "2023-12-22T19:11:00+09:30")).toBeLessThanOrEqual(2);
  });

  it("uses the local day, not the UTC day: Sydney at 23:00 local on 15 January", () => {
    // 2026-01-15T12:00Z is already 23:00 in Sydney: sunrise and sunset are those of the 15th.
    const tz = describeTimezone("Australia/Sydney", -33.87, 151.21, at("2026-01-15T12:00:00Z"));
    expect(tz.sunrise.startsWith("2026-01-15T05:")).toBe(true);
    expect(tz.sunset.startsWith("2026-01-15T20:")).toBe(true);
  });

  it("Longyearbyen (78.2°N): polar night in mid-December, midnight sun at the June solstice", () => {
    // The sun stays below the horizon there from late October to mid-February and above it from
    // about 20 April to 23 August.
    const december = describeTimezone("Arctic/Longyearbyen", 78.22, 15.65, at("2026-12-15T12:00:00Z"));
    expect(december.sunrise).toBe(POLAR_NIGHT);
    expect(december.sunset).toBe(POLAR_NIGHT);
    const june = describeTimezone("Arctic/Longyearbyen", 78.22, 15.65, at("2026-06-21T12:00:00Z"));
    expect(june.sunrise).toBe(POLAR_DAY);
    expect(june.sunset).toBe(POLAR_DAY);
    expect(june.GMT).toBe(120);
    expect(june.isDST).toBe(1);
  });

  it("Longyearbyen in March has an ordinary sunrise and sunset", () => {
    const tz = describeTimezone("Arctic/Longyearbyen", 78.22, 15.65, at("2026-03-20T12:00:00Z"));
    expect(tz.sunrise).toMatch(/^2026-03-20T0\d:\d\d:00\+01:00$/);
    expect(tz.sunset).toMatch(/^2026-03-20T1\d:\d\d:00\+01:00$/);
  });

  it("on a DST change day, each time carries the offset in force at that moment", () => {
    // Berlin, 29 March 2026: clocks go from 02:00 CET to 03:00 CEST, before sunrise.
    const tz = describeTimezone("Europe/Berlin", 52.52, 13.405, at("2026-03-29T00:30:00Z"));
    expect(tz.timeFormatted).toBe("2026-03-29T01:30:00+01:00");
    expect(tz.isDST).toBe(0);
    expect(tz.sunrise).toMatch(/^2026-03-29T0[67]:\d\d:00\+02:00$/);
    expect(tz.sunset).toMatch(/^2026-03-29T19:\d\d:00\+02:00$/);
  });

  it("at the poles: the North Pole is in polar day in June and polar night in December, the South Pole the reverse", () => {
    expect(describeTimezone("Etc/GMT", 90, 0, at("2026-06-21T12:00:00Z")).sunrise).toBe(POLAR_DAY);
    expect(describeTimezone("Etc/GMT", 90, 0, at("2026-12-21T12:00:00Z")).sunset).toBe(POLAR_NIGHT);
    expect(describeTimezone("Antarctica/McMurdo", -90, 0, at("2026-06-21T12:00:00Z")).sunrise).toBe(POLAR_NIGHT);
    expect(describeTimezone("Antarctica/McMurdo", -90, 180, at("2026-12-21T12:00:00Z")).sunset).toBe(POLAR_DAY);
  });

  it("writes every time as YYYY-MM-DDTHH:MM:SS±HH:MM", () => {
    const shape = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/;
    const tz = describeTimezone("Pacific/Chatham", -43.95, -176.56, at("2026-07-01T00:00:00Z"));
    for (const value of [tz.timeFormatted, tz.sunrise, tz.sunset]) expect(value).toMatch(shape);
  });
});

describe("describeTimezone across a local midnight", () => {
  it("gives the published times all local day, and the next day's from local midnight", () => {
    const tz = describeTimezone("Europe/Berlin", 52.52, 13.405, at("2024-12-21T11:00:00Z"));
    expect(minutesOff(tz.sunrise, "2024-12-21T08:14:38+01:00")).toBeLessThanOrEqual(2);
    expect(minutesOff(tz.sunset, "2024-12-21T15:54:41+01:00")).toBeLessThanOrEqual(2);
    // Later the same local day: the same times; the instant's own fields move.
    const later = describeTimezone("Europe/Berlin", 52.52, 13.405, at("2024-12-21T22:59:59Z"));
    expect([later.sunrise, later.sunset]).toEqual([tz.sunrise, tz.sunset]);
    expect(later.timeFormatted).toBe("2024-12-21T23:59:59+01:00");
    // One second later it is 22 December in Berlin: that day's times.
    const next = describeTimezone("Europe/Berlin", 52.52, 13.405, at("2024-12-21T23:00:00Z"));
    expect(next.sunrise.startsWith("2024-12-22T08:1")).toBe(true);
  });
});
