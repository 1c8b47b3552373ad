/**
 * METAR decoder against outside references: aviationweather.gov's published decodes of real
 * reports (fixture cut from aviationweather-na-2025-09-09_12.csv), and values read off real
 * reports by the code forms of WMO FM 15 and FMH-1 (remarks).
 */
import { describe, expect, it } from "vitest";
import { readCsvRows } from "../../../pipeline/stations/ingest/csv-rows.ts";
import { decodeMetar, preciseTemperature } from "../../../pipeline/stations/metar/decode.ts";
import { fixture, fixtureLines } from "./fixtures.ts";

function globalReport(station: string): string {
  return fixtureLines("metars-global-excerpt.txt").find((l) => l.startsWith(station))!;
}

const awcRows = await readCsvRows(fixture("aviationweather-breakers.csv"), "aviationweather-breakers.csv");

describe("decodeMetar against aviationweather.gov decodes", () => {
  const [{ fields: header }, ...records] = awcRows;
  const rows = records.map(({ fields: f }) => {
    const get = (name: string): number | undefined => {
      const v = f[header.indexOf(name)];
      return v === undefined || v === "NA" ? undefined : Number(v);
    };
    return { raw: f[header.indexOf("raw_text")]!, temp: get("temp_c"), dewp: get("dewpoint_c"), dir: get("wind_dir_deg"), kt: get("wind_kts"), gust: get("gust_kts"), vis: get("vis_sm"), alt: get("altimeter_hpa") };
  });

  it.each(rows.map((r) => [r.raw.slice(0, 60), r] as const))("%s", (_name, row) => {
    const d = decodeMetar(row.raw);
    expect(preciseTemperature(d.temperatureC, d.remarks?.temperatureC)).toBe(row.temp);
    expect(preciseTemperature(d.dewpointC, d.remarks?.dewpointC)).toBe(row.dewp);
    expect(d.wind?.directionDeg).toBe(row.dir);
    expect(d.wind?.speedKt).toBe(row.kt);
    expect(d.wind?.gustKt).toBe(row.gust);
    // The CSV rounds miles to two decimals (1/16 -> 0.06) and writes NA for 10SM.
    if (row.vis !== undefined) expect(Math.abs(d.visibility!.statuteMiles! - row.vis)).toBeLessThanOrEqual(0.0051);
    if (row.alt === undefined) expect(d.altimeterHpa).toBeUndefined();
    else expect(Math.abs(d.altimeterHpa! - row.alt)).toBeLessThanOrEqual(0.35);
  });
});

describe("decodeMetar on the breakers of other decoders", () => {
  it("reads 1/16SM, M1/4SM and split fractions 2 1/2SM", () => {
    expect(decodeMetar("METAR KMWN 120352Z 31026G35KT 1/16SM FG VV000 03/03 RMK FG INTMT").visibility).toMatchObject({ statuteMiles: 0.0625, metres: 101 });
    const m = decodeMetar("METAR K0VG 120455Z AUTO 00000KT M1/4SM FG OVC002 15/15 A3020 RMK AO2");
    expect(m.visibility).toMatchObject({ statuteMiles: 0.25, qualifier: "lessThan", metres: 402 });
    const split = decodeMetar("SPECI CYXX 091551Z VRB02KT 2 1/2SM BR OVC004 16/16 A2995 RMK ST8 SLP145 DENSITY ALT 400FT");
    expect(split.visibility?.statuteMiles).toBe(2.5);
    expect(split.unread).toEqual([]);
    expect(split.wind).toMatchObject({ variable: true, speed: 2 });
  });

  it("reads 9999NDV with a variable wind sector", () => {
    const d = decodeMetar(globalReport("LSMM"));
    expect(d.visibility).toMatchObject({ metres: 10000, qualifier: "atLeast", ndv: true });
    expect(d.wind).toMatchObject({ directionDeg: 80, speed: 4, variableFromDeg: 10, variableToDeg: 120 });
    expect(d.clouds.map((c) => [c.cover, c.baseFt])).toEqual([["FEW", 1200], ["BKN", 2900], ["OVC", 3700]]);
    expect(d.unread).toEqual([]);
  });

  it("reads directional visibility beside the prevailing value", () => {
    const bivo = decodeMetar(globalReport("BIVO"));
    expect(bivo.visibility).toMatchObject({ metres: 4000, directional: [{ metres: 2000, direction: "NE" }] });
    expect(bivo.dewpointC).toBe(-12);
    const lztt = decodeMetar(globalReport("LZTT"));
    expect(lztt.visibility).toMatchObject({ metres: 3500, directional: [{ metres: 200, direction: "W" }] });
    expect(lztt.rvr).toEqual([{ runway: "27", value: 1400, unit: "m", tendency: "D", raw: "R27/1400D" }]);
    expect(lztt.weather.map((w) => w.raw)).toEqual(["BR", "BCFG"]);
    expect(lztt.unread).toEqual([]);
  });

  it("treats //// groups of automatic stations as not reported", () => {
    const d = decodeMetar(globalReport("FYGF"));
    expect(d.unread).toEqual([]);
    expect(d.visibility).toBeUndefined();
    expect(d.clouds).toEqual([]);
    expect([d.temperatureC, d.dewpointC, d.altimeterHpa]).toEqual([19, 17, 1019]);
  });

  it("reads MPS winds and CAVOK", () => {
    const d = decodeMetar(globalReport("UWOO"));
    expect(d.wind).toMatchObject({ directionDeg: 200, speed: 2, unit: "MPS", speedKt: 3.9 });
    expect(d.visibility).toMatchObject({ cavok: true, metres: 10000 });
    expect([d.temperatureC, d.dewpointC, d.altimeterHpa]).toEqual([-12, -19, 1040]);
    expect(d.trends).toEqual(["NOSIG"]);
  });

  it("reads COR, SPECI and recent weather", () => {
    expect(decodeMetar("METAR KBED 091451Z COR 11004KT 10SM SCT030 19/11 A3038 RMK AO2 SLP299 T01940106 58001").correction).toBe(true);
    const w = decodeMetar(globalReport("WBSB"));
    expect(w.recentWeather.map((x) => x.raw)).toEqual(["RESHRA"]);
    expect(w.clouds[1]).toEqual({ cover: "FEW", baseFt: 1500, type: "CB" });
  });

  it("does not let a TEMPO trend overwrite observed values", () => {
    const text = fixture("kawn.txt");
    const lfbd = text.slice(text.indexOf("METAR LFBD"), text.indexOf("=", text.indexOf("METAR LFBD")));
    const d = decodeMetar(lfbd);
    expect(d.visibility?.metres).toBe(10000);
    expect(d.weather).toEqual([]);
    expect(d.trends).toEqual(["TEMPO 4000 SHRA BKN020TCU"]);
    const lfba = decodeMetar("METAR LFBA 020100Z AUTO 26009KT 220V280 9999 ///TCU 17/14 Q1013");
    expect(lfba.clouds).toEqual([{ type: "TCU" }]);
  });

  it("reads visibility in KM, -VCTSRA and missing groups in their own unit (////SM)", () => {
    expect(decodeMetar(globalReport("NZWU")).visibility?.metres).toBe(20000);
    const krrt = decodeMetar("METAR KRRT 120455Z AUTO 13004KT 10SM -VCTSRA SCT010 BKN036 OVC055 16/14 A3006 RMK AO2 LTG DSNT NW THRU NE");
    expect(krrt.weather).toEqual([{ intensity: "light", vicinity: true, descriptor: "TS", phenomena: ["RA"], recent: false, raw: "-VCTSRA" }]);
    const cpin = decodeMetar(globalReport("CPIN"));
    expect(cpin.unread).toEqual([]);
    expect([cpin.visibility, cpin.altimeterHpa]).toEqual([undefined, undefined]);
  });

  it("reads groups out of their usual order (KLGB: visibility before wind)", () => {
    const d = decodeMetar("METAR KLGB 091753Z COR 10SM 20004KT FEW022 22/16 A2994 RMK AO2 SLP139 T02220156 10222 20189 50002");
    expect([d.visibility?.statuteMiles, d.wind?.directionDeg, d.wind?.speed, d.temperatureC, d.altimeterInHg, d.correction]).toEqual([10, 200, 4, 22, 29.94, true]);
    expect(d.unread).toEqual([]);
  });
});

describe("decodeMetar US remarks (FMH-1 chapter 12)", () => {
  it("reads SLP, T, 6-hour max/min, 24-hour max/min and the pressure tendency", () => {
    const d = decodeMetar("KAMW 081353Z AUTO 00000KT 10SM CLR 12/11 A3015 RMK AO2 SLP207 T01170106 10206 20117 402280117 57002");
    expect(d.remarks).toMatchObject({
      stationType: "AO2",
      seaLevelPressureHpa: 1020.7,
      temperatureC: 11.7,
      dewpointC: 10.6,
      max6hC: 20.6,
      min6hC: 11.7,
      max24hC: 22.8,
      min24hC: 11.7,
      pressureTendency: { characteristic: 7, changeHpa: 0.2 },
    });
  });

  it("reads hourly, 3/6-hour and 24-hour precipitation in mm, negative T groups and snow depth", () => {
    const d = decodeMetar("KBTV 312354Z 18013G21KT 10SM BKN041 BKN048 OVC060 M05/M13 A2986 RMK AO2 PK WND 18028/2322 SNB03E43 SLP119 4/001 P0000 60000 T10501133 11044 21067 56034");
    expect(d.remarks).toMatchObject({ hourlyPrecipitationMm: 0, precipitation3or6hMm: 0, temperatureC: -5, dewpointC: -13.3, max6hC: -4.4, min6hC: -6.7, snowDepthIn: 1, seaLevelPressureHpa: 1011.9, peakWind: { directionDeg: 180, speedKt: 28, time: "2322" } });
    const kmia = decodeMetar("KMIA 081403Z 16032G45KT 1/2SM +FC +TSRA BR SCT005 BKN016CB OVC034 23/19 A3003 RMK TORNADO B02 OHD MOV NE AO2 PK WND 15045/0202 WSHFT 0141 PRESRR CONS LTGICCCCG OHD TS OHD MOV NE P0046 $");
    expect(kmia.remarks?.hourlyPrecipitationMm).toBe(11.68);
    expect(kmia.remarks?.maintenance).toBe(true);
    const six = decodeMetar("KALO 081354Z AUTO 17027G37KT 10SM FEW030 SCT110 19/16 A2979 RMK AO2 PK WND 18051/2025 RAE48 SLP088 P0005 60014 T01890156 58046");
    expect(six.remarks).toMatchObject({ hourlyPrecipitationMm: 1.27, precipitation3or6hMm: 3.56, seaLevelPressureHpa: 1008.8 });
  });

  it("reads a T group whose dewpoint is missing (T0174////)", () => {
    const d = decodeMetar("METAR KD73 120435Z AUTO 10SM CLR 17/ A3014 RMK AO2 T0174////");
    expect(d.remarks?.temperatureC).toBe(17.4);
    expect(d.remarks?.dewpointC).toBeUndefined();
    expect(d.dewpointC).toBeUndefined();
  });
});

describe("decodeMetar never throws and lists what it cannot read", () => {
  it("lists a NUL byte and the garbage after it with their offsets", () => {
    const text = fixture("nullbyte.txt");
    const report = text.slice(text.indexOf("SPECI"), text.indexOf("$") + 1);
    const d = decodeMetar(report);
    const nul = report.indexOf("\u0000");
    expect(d.unread).toContainEqual({ group: "\u0000", offset: nul, reason: "non-printable character" });
    expect([d.station, d.wind?.speed, d.visibility?.statuteMiles, d.temperatureC, d.altimeterInHg]).toEqual(["KNZY", 4, 5, 16, 29.94]);
  });

  it("lists the stray bytes of badchars.txt and still reads the groups around them", () => {
    const text = fixture("badchars.txt");
    const start = text.indexOf("METAR HRYR");
    const report = text.slice(start, text.indexOf("=", start));
    const d = decodeMetar(report);
    expect(d.unread.map((u) => u.group)).toEqual(["\u00c2", "\u00a0"]);
    expect(d.unread[0]!.offset).toBe(report.indexOf("\u00c2"));
    expect(d.clouds.map((c) => c.baseFt)).toEqual([2600, 10000]);
    expect([d.temperatureC, d.dewpointC, d.altimeterHpa]).toEqual([21, 16, 1021]);
  });

  it("lists unreadable groups with their offsets (QQQQ O81354Z, 1QQQ)", () => {
    const a = decodeMetar("QQQQ O81354Z AUTO 17027G37KT");
    expect(a.unread).toEqual([{ group: "O81354Z", offset: 5, reason: "not a METAR group" }]);
    const b = decodeMetar("1QQQ 081354Z AUTO 17027G37KT");
    expect(b.unread).toEqual([{ group: "1QQQ", offset: 0, reason: "expected an ICAO station identifier" }]);
    expect(b.day).toBe(8);
  });

  it("survives every truncation of real reports and seeded random bytes", () => {
    const reports = [...fixtureLines("metars-global-excerpt.txt"), fixture("collective.txt"), fixture("sa.txt")];
    let seed = 12345;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let i = 0; i < 300; i++) {
      let s = "";
      const n = Math.floor(rnd() * 80);
      for (let k = 0; k < n; k++) s += String.fromCharCode(Math.floor(rnd() * 256));
      reports.push(s);
    }
    for (const r of reports) {
      for (let cut = 0; cut <= r.length; cut += 3) {
        const text = r.slice(0, cut);
        const d = decodeMetar(text);
        for (const u of d.unread) expect(u.offset).toBeLessThanOrEqual(text.length);
        expect(d.unread.some((u) => u.reason.startsWith("decoder error"))).toBe(false);
      }
    }
  });
});
