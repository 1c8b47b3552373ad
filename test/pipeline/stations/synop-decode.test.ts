/**
 * SYNOP (FM 12) decoder against outside references: reports whose decodes pymetdecoder publishes
 * in its test suite (antarctica/pymetdecoder tests/test_synop.py), and real bulletins (Cuba,
 * Romania, Argentina) read by the code forms of the WMO Manual on Codes.
 */
import { describe, expect, it } from "vitest";
import { decodeSynop } from "../../../pipeline/stations/synop/decode.ts";
import { splitReports } from "../../../pipeline/stations/ingest/split.ts";
import { fixture, fixtureLines } from "./fixtures.ts";

const argentina = fixtureLines("ogimet-argentina-2026-03-excerpt.txt");
const line = (prefix: string): string => argentina.find((l) => l.startsWith(prefix))!;

describe("decodeSynop against pymetdecoder's published decodes", () => {
  it("AAXX 01004 88889: sections 0, 1 and 3", () => {
    const d = decodeSynop("AAXX 01004 88889 12782 61506 10094 20047 30111 40197 53007 60001 70102 81541 333 10178 21073 34101");
    expect(d).toMatchObject({
      day: 1, hour: 0, windUnit: "kt", windMeasured: true, station: "88889",
      precipitationIndicator: 1, weatherIndicator: 2, cloudBaseCode: 7, visibilityCode: 82, visibilityM: 40000,
      totalCloudOctas: 6, windDirectionDeg: 150, windSpeed: 6, windSpeedKt: 6,
      temperatureC: 9.4, dewpointC: 4.7, stationPressureHpa: 1011.1, seaLevelPressureHpa: 1019.7,
      pressureTendency: { characteristic: 3, changeHpa: 0.7 },
      precipitation: { mm: 0, trace: false, periodH: 6 },
      presentWeather: 1, pastWeather1: 0, pastWeather2: 2,
      lowCloudOctas: 1, cloudLow: 5, cloudMiddle: 4, cloudHigh: 1,
    });
    expect(d.section3).toMatchObject({ maxTemperatureC: 17.8, minTemperatureC: -7.3, groundState: 4, groundTemperatureC: -1 });
    expect(d.unread).toEqual([]);
    expect(d.groupsRead).toBe(d.groupsSeen);
  });

  it("AAXX 20104 89646: wind over 99 knots (00fff), relative humidity, station pressure", () => {
    const d = decodeSynop("AAXX 20104 89646 46/// /2299 00113 29079 37708 42010 333 01268");
    expect(d).toMatchObject({ day: 20, hour: 10, windUnit: "kt", precipitationIndicator: 4, weatherIndicator: 6, windDirectionDeg: 220, windSpeedKt: 113, relativeHumidity: 79, stationPressureHpa: 770.8 });
    expect(d.totalCloudOctas).toBeUndefined();
    expect(d.visibilityM).toBeUndefined();
    expect(d.section3?.regional).toEqual(["01268"]);
  });

  it("AAXX 20064 67005: 24-hour precipitation period and a regional section 3 group", () => {
    const d = decodeSynop("AAXX 20064 67005 12570 50402 60004 333 02434");
    expect(d).toMatchObject({ cloudBaseCode: 5, visibilityM: 20000, totalCloudOctas: 5, windDirectionDeg: 40, windSpeedKt: 2, precipitation: { mm: 0, periodH: 24 } });
  });

  it("AAXX 01004 89022: iR = 3 and section 4 kept as written", () => {
    const d = decodeSynop("AAXX 01004 89022 32782 61506 30111 333 10178 444 21053 34810");
    expect(d.precipitationIndicator).toBe(3);
    expect(d.section4).toBe("21053 34810");
    expect(d.section3?.maxTemperatureC).toBe(17.8);
  });
});

describe("decodeSynop on real bulletins", () => {
  it("Cuba SMCU20: m/s winds (iw = 1), full section 3 with 5-, 8- and 9-groups", async () => {
    const reports = await splitReports(fixture("SMCU20_MUHV_310000.txt"));
    const d = decodeSynop(reports[0]!.text);
    expect(reports[0]!.text.startsWith("AAXX 31001 78310 01470 70303")).toBe(true);
    expect(d).toMatchObject({ station: "78310", day: 31, hour: 0, windUnit: "m/s", windDirectionDeg: 30, windSpeedMps: 3, temperatureC: 25, dewpointC: 21.4, precipitation: { mm: 11, periodH: 6 }, presentWeather: 3, pastWeather1: 9, pastWeather2: 8, cloudLow: 9, cloudMiddle: 7 });
    expect(d.cloudHigh).toBeUndefined();
    expect(d.section3).toMatchObject({
      maxTemperatureC: 32, minTemperatureC: 24, groundState: 1,
      temperatureChange: { hoursBefore: 4, changeC: -6 },
      cloudDrift: { low: 9, middle: 9, high: 9 }, cloudDirection: { genus: 9, direction: 8, elevation: 2 },
      pressureChange24hHpa: -1.5, precipitation: { mm: 11, periodH: 3 }, precipitation24hMm: 11.4,
      cloudLayers: [{ octas: 2, genus: 8, heightCode: 18, heightM: 540 }, { octas: 7, genus: 3, heightCode: 59, heightM: 2700 }, { octas: 4, genus: 9 }],
      special: [{ code: 4, value: "25" }, { code: 11, value: "18" }, { code: 15, value: "36" }, { code: 20, value: "13" }],
    });
    expect(d.unread).toEqual([]);
  });

  it("Cuba SMCU20: NIL reports and section 5", async () => {
    const reports = (await splitReports(fixture("SMCU20_MUHV_310000.txt"))).map((r) => decodeSynop(r.text));
    expect(reports.filter((r) => r.nil).map((r) => r.station)).toEqual(["78328", "78332"]);
    expect(reports.find((r) => r.station === "78315")?.section5).toBe("12301");
  });

  it("Romania SMRO01: negative temperatures, sunshine and radiation groups, 6-group in section 3 with iR = 0", () => {
    const d = decodeSynop("AAXX 17121 15108 01/92 92514 11028 21028 37901 48315 50001 69941 77174 333 48014 55300 0//// 20270 3//// 69947 91020 911// 92727 92913 96047");
    expect(d).toMatchObject({ precipitationIndicator: 0, visibilityM: 200, totalCloudOctas: 9, temperatureC: -2.8, dewpointC: -2.8, stationPressureHpa: 790.1, geopotential: { levelHpa: 850, gpm: 1315 }, precipitation: { mm: 0.4, periodH: 6 }, presentWeather: 71 });
    expect(d.section3).toMatchObject({ groundStateSnow: 8, snowDepthCm: 14, sunshineH: 0, sunshinePeriodH: 1, radiation: [{ j: 0 }, { j: 2, value: 270 }, { j: 3 }], precipitation: { mm: 0.4, periodH: 3 } });
    expect(d.section3?.special.map((s) => s.code)).toEqual([10, 11, 27, 29, 60]);
    // 91020: highest gust of the last 10 minutes 20 m/s (iw = 1); 911//: not reported.
    expect(d.section3?.gusts).toEqual([{ window: "10min", speed: 20, speedKt: 38.9 }, { window: "period" }]);
    expect(d.groupsRead).toBe(d.groupsSeen);
  });

  it("Romania SMRO01: section 2 (222Dsvs) is kept as written", () => {
    const d = decodeSynop("AAXX 17121 15480 05997 42104 10146 20092 30023 40040 57015 60001 7000/ 82031 222// 06078 2//// 333 55309 00621 21275 30948 60007 91010 91112 92427");
    expect(d.section2).toBe("222// 06078 2////");
    expect(d.section3).toMatchObject({ sunshineH: 0.9, radiation: [{ j: 0, value: 621 }, { j: 2, value: 1275 }, { j: 3, value: 948 }] });
    expect(d.pastWeather2).toBeUndefined();
  });

  it("Argentina: knots (iw = 4), iR 1 to 4, section 5 kept raw", () => {
    const kt = decodeSynop(line("AAXX 10054 87582"));
    expect(kt).toMatchObject({ windUnit: "kt", windDirectionDeg: 60, windSpeedKt: 15, windSpeedMps: 7.7, precipitationIndicator: 4, section5: "10199" });
    expect(kt.precipitation).toBeUndefined();
    const ir1 = decodeSynop(line("AAXX 10004 87750"));
    expect(ir1).toMatchObject({ precipitationIndicator: 1, precipitation: { mm: 1, periodH: 6 }, presentWeather: 1, section5: "10195 64177 65208" });
    const ir2 = decodeSynop(line("AAXX 10004 87050"));
    expect(ir2).toMatchObject({ precipitationIndicator: 2, weatherIndicator: 1, stationPressureHpa: 918.5, geopotential: { levelHpa: 850, gpm: 1522 } });
    const ir3 = decodeSynop(line("AAXX 10004 87582"));
    expect(ir3).toMatchObject({ precipitationIndicator: 3, visibilityM: 10000, totalCloudOctas: 2, temperatureC: 21.5, cloudLow: 0, cloudMiddle: 3, cloudHigh: 6 });
    expect(ir3.section3).toMatchObject({ maxTemperatureC: 24.2, minTemperatureC: 19.2, cloudDrift: { low: 0, middle: 6, high: 6 } });
  });

  it("reads a report whose iRiXhVV group is omitted (00507 is Nddff: iX 0 does not exist)", () => {
    const d = decodeSynop(line("AAXX 10234 87750 00507"));
    expect(d).toMatchObject({ totalCloudOctas: 0, windDirectionDeg: 50, windSpeedKt: 7, temperatureC: 22, dewpointC: 15.9, seaLevelPressureHpa: 1017.8 });
    expect(d.precipitationIndicator).toBeUndefined();
    expect(d.unread).toEqual([]);
  });

  it("reads a pressure tendency without its characteristic (Cuba 78371: 5/011)", async () => {
    const r = (await splitReports(fixture("SMCU20_MUHV_310000.txt"))).find((x) => x.text.includes(" 78371 "))!;
    const d = decodeSynop(r.text);
    expect(d.pressureTendency).toEqual({ changeHpa: 1.1 });
    expect(d.unread).toEqual([]);
  });

  it("lists a repeated station index as unread instead of failing the report", () => {
    const d = decodeSynop(line("AAXX 09184 87544 87544"));
    expect(d.unread).toEqual([{ group: "87544", offset: "AAXX 09184 87544 ".length, reason: "station index repeated" }]);
    expect(d).toMatchObject({ station: "87544", precipitationIndicator: 1, weatherIndicator: 1, totalCloudOctas: 7, windDirectionDeg: 50, temperatureC: 23.1 });
  });
});

// Real reports of the shared Argentine corpus (ogimet-argentina-2026-03_days01-17.txt) that are
// malformed or test the section rules, decoded by hand per FM 12 (WMO-No. 306 Vol. I.1): sections
// in the order 1, 2 (222, "maritime data for global exchange pertaining to a sea, or to a coastal
// station", as the 2019 edition's FM 12 section list reads, quoted in wmo-im/BUFR4's
// Temperature_Precipitation_Snow_WMO_306.pdf), 3, 4, 5; section 1 groups 1-9 in increasing order;
// code tables 4377 (VV), 1600 (h), 3590 (RRR), 4019 (tR), 1819 (iR).
const outOfPlace = fixtureLines("ogimet-argentina-2026-03-out-of-place.txt");
const report = (prefix: string): string => outOfPlace.find((l) => l.startsWith(prefix))!;
const unreadAt = (text: string, group: string, after: string, reason: string) => ({ group, offset: text.indexOf(`${after} ${group}`) + after.length + 1, reason });

describe("decodeSynop: section order and groups out of place (Argentine corpus)", () => {
  it("87803 12044: 22208 in the place of Nddff is N = 2, 220°, 8 kt, not the section 2 marker", () => {
    const text = report("AAXX 12044 87803");
    const d = decodeSynop(text);
    // 42780: iR 4, iX 2, h 7, VV 80 = 30 km; 22208: N 2, dd 22, ff 08 kt (iw = 4).
    expect(d).toMatchObject({
      precipitationIndicator: 4, weatherIndicator: 2, cloudBaseCode: 7, visibilityM: 30000,
      totalCloudOctas: 2, windDirectionDeg: 220, windSpeedKt: 8,
      temperatureC: 12.7, dewpointC: 1.2, stationPressureHpa: 925, seaLevelPressureHpa: 1015.6,
      pressureTendency: { characteristic: 1, changeHpa: 1.2 }, lowCloudOctas: 1, cloudLow: 2, cloudMiddle: 0, cloudHigh: 8,
      section5: "10173",
    });
    expect(d.section2).toBeUndefined();
    expect(d.section3).toMatchObject({ cloudDrift: { low: 5, middle: 0, high: 7 }, cloudDirection: { genus: 8, direction: 0, elevation: 6 }, cloudLayers: [{ octas: 1, genus: 8, heightCode: 50, heightM: 1500 }] });
    expect(d.unread).toEqual([]);
    expect(d.groupsRead).toBe(d.groupsSeen);
  });

  it("87761 11184: a repeated group 1 (10038, the mistyped dew point) is unread; 10237 in place wins", () => {
    const text = report("AAXX 11184 87761");
    const d = decodeSynop(text);
    expect(d.temperatureC).toBe(23.7);
    expect(d.dewpointC).toBeUndefined();
    expect(d.stationPressureHpa).toBe(924.2);
    expect(d.unread).toEqual([unreadAt(text, "10038", "10237", "section 1 group 1 repeated")]);
  });

  it("87444 16124: a group 1 after group 3 (39354 10038) is unread", () => {
    const text = report("AAXX 16124 87444");
    const d = decodeSynop(text);
    expect(d).toMatchObject({ temperatureC: 23.6, dewpointC: 20.3, stationPressureHpa: 935.4, pressureTendency: { characteristic: 2, changeHpa: 1.6 }, cloudLow: 5, cloudMiddle: 0, cloudHigh: 0 });
    expect(d.unread).toEqual([unreadAt(text, "10038", "39354", "section 1 group 1 out of order (after group 3)")]);
  });

  it("87065 14153: without 333, section 3's groups after 84100 are unread, not cloud types", () => {
    const text = report("AAXX 14153 87065");
    const d = decodeSynop(text);
    // 84100: Nh 4, CL 1, CM 0, CH 0.
    expect(d).toMatchObject({ lowCloudOctas: 4, cloudLow: 1, cloudMiddle: 0, cloudHigh: 0 });
    expect(d.section3).toBeUndefined();
    expect(d.unread).toEqual([
      unreadAt(text, "56400", "84100", "section 1 group 5 out of order (after group 8)"),
      unreadAt(text, "84845", "56400", "section 1 group 8 repeated"),
    ]);
  });

  it("87938 15124: a repeated group 6 (68536) is unread; 69954 = 0.5 mm over 24 h", () => {
    const text = report("AAXX 15124 87938");
    const d = decodeSynop(text);
    expect(d.precipitation).toEqual({ mm: 0.5, trace: false, periodH: 24 });
    expect(d.unread).toEqual([unreadAt(text, "68536", "69954", "section 1 group 6 repeated")]);
  });

  it("87534 17214: the group 1 in its place (10413) wins over the one after it", () => {
    const text = report("AAXX 17214 87534");
    const d = decodeSynop(text);
    expect(d).toMatchObject({ temperatureC: 41.3, dewpointC: 6.6, stationPressureHpa: 996.4 });
    expect(d.unread).toEqual([unreadAt(text, "10219", "10413", "section 1 group 1 repeated")]);
  });

  it("87750 10174: 42765 is a stray second indicator group, 50209 the Nddff; 10281 is read (28.1 °C)", () => {
    const text = report("AAXX 10174 87750");
    const d = decodeSynop(text);
    // Hand decoding (WMO-No. 306 FM 12, code tables 1819, 1855, 1600, 4377, 2700, 0877): 42965 iR 4,
    // iX 2, h 9, VV 65 = 15 km; 42765 repeats iR iX (read as Nddff it gives 4 octas, below the 5 octas
    // of low cloud of 85100, and 65 kt); 50209 N 5, 020°, 9 kt; then groups 1-5 and 8 in order.
    expect(d).toMatchObject({
      precipitationIndicator: 4, weatherIndicator: 2, cloudBaseCode: 9, visibilityM: 15000,
      totalCloudOctas: 5, windDirectionDeg: 20, windSpeedKt: 9,
      temperatureC: 28.1, dewpointC: 14.7, stationPressureHpa: 1009.7, seaLevelPressureHpa: 1019.5,
      pressureTendency: { characteristic: 6, changeHpa: 1.3 }, lowCloudOctas: 5, cloudLow: 1, cloudMiddle: 0, cloudHigh: 0,
    });
    expect(d.unread).toEqual([unreadAt(text, "42765", "42965", "stray group before Nddff (the report reads in order without it)")]);
  });

  it("87774 13183 and 87448 17034: Nddff omitted; 10182 and 10186 are the temperature, not 82 and 86 kt winds", () => {
    const a = decodeSynop(report("AAXX 13183 87774"));
    // 32682: VV 82 = 40 km, iX 2 (no group 7, none written); 10182 as Nddff would be 82 kt.
    expect(a).toMatchObject({ visibilityM: 40000, temperatureC: 18.2, dewpointC: -2.3, lowCloudOctas: 1 });
    expect(a.totalCloudOctas).toBeUndefined();
    expect(a.windSpeed).toBeUndefined();
    const b = decodeSynop(report("AAXX 17034 87448"));
    // 41215: VV 15 = 1.5 km with drizzle (75052, iX 1 announces it); 10186 as Nddff would be 1 octa
    // under 8 octas of stratus (886//) and 86 kt.
    expect(b).toMatchObject({ visibilityM: 1500, temperatureC: 18.6, dewpointC: 18.6, presentWeather: 50, lowCloudOctas: 8, cloudLow: 6 });
    expect(b.totalCloudOctas).toBeUndefined();
    expect(a.unread).toEqual([]);
    expect(b.unread).toEqual([]);
  });

  it("87453 17204: iRiXhVV omitted; 41815 is Nddff (4 octas, 180°, 15 kt), not 1.5 km of visibility", () => {
    const d = decodeSynop(report("AAXX 17204 87453"));
    // As iRiXhVV, 41815 would announce group 7 (iX 1) and there is none; 10206 as Nddff would give
    // 1 octa under 4 octas of low cloud (84500). Read as Nddff it agrees with both.
    expect(d).toMatchObject({ totalCloudOctas: 4, windDirectionDeg: 180, windSpeedKt: 15, temperatureC: 20.6, dewpointC: 12.9, lowCloudOctas: 4, cloudLow: 5 });
    expect(d.visibilityM).toBeUndefined();
    expect(d.precipitationIndicator).toBeUndefined();
    expect(d.unread).toEqual([]);
  });

  it("87643 14144: a wind direction that is no code figure (dd 41) leaves the wind out; N, its own figure, is read", () => {
    const text = report("AAXX 14144 87643");
    const d = decodeSynop(text);
    expect(d).toMatchObject({ totalCloudOctas: 6, temperatureC: 18.6, dewpointC: 16.8, lowCloudOctas: 2 });
    expect(d.windDirectionDeg).toBeUndefined();
    expect(d.windSpeed).toBeUndefined();
    expect(d.unread).toEqual([unreadAt(text, "64105", "41460", "not a valid section 1 group")]);
  });

  it("a 222 group after Nddff still starts section 2 (Romania 15480, a coastal station)", () => {
    const d = decodeSynop("AAXX 17121 15480 05997 42104 10146 20092 30023 40040 57015 60001 7000/ 82031 222// 06078 2//// 333 55309");
    expect(d.section2).toBe("222// 06078 2////");
    expect(d.section3?.sunshineH).toBe(0.9);
  });
});

describe("decodeSynop never throws", () => {
  it("survives every truncation of real reports and seeded random text", () => {
    const inputs = [...argentina, fixture("SMCU20_MUHV_310000.txt"), fixture("A_SMRO01YRBK171800_C_EDZW_20230117180502_51662689.txt")];
    let seed = 99;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const alphabet = "0123456789/ =AXN\u0000\u00a0";
    for (let i = 0; i < 300; i++) {
      let s = "AAXX ";
      for (let k = 0; k < 60; k++) s += alphabet[Math.floor(rnd() * alphabet.length)];
      inputs.push(s);
    }
    for (const r of inputs) {
      for (let cut = 0; cut <= r.length; cut += 2) {
        const d = decodeSynop(r.slice(0, cut));
        expect(d.unread.some((u) => u.reason.startsWith("decoder error"))).toBe(false);
        expect(d.groupsRead).toBeLessThanOrEqual(d.groupsSeen);
      }
    }
  });
});
