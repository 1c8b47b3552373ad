/**
 * Mapping to the spec's station observation record. ww values from WMO code table 4677's
 * definitions (e.g. 95 "thunderstorm, slight or moderate, without hail, but with rain and/or snow",
 * 61/63/65 "rain, not freezing, continuous, slight/moderate/heavy"); octas x 12.5; miles x 1609.344.
 */
import { describe, expect, it } from "vitest";
import { decodeMetar } from "../../../pipeline/stations/metar/decode.ts";
import { metarToRecord } from "../../../pipeline/stations/metar/to-record.ts";
import { readWeather } from "../../../pipeline/stations/metar/groups.ts";
import { wwOfReport } from "../../../pipeline/stations/metar/weather-ww.ts";
import { decodeSynop } from "../../../pipeline/stations/synop/decode.ts";
import { synopToRecord } from "../../../pipeline/stations/synop/to-record.ts";
import { fixtureLines } from "./fixtures.ts";

// The weather groups as coded (code table 4678), read by the decoder's group reader.
const ww = (groups: string): number | undefined => wwOfReport(groups.split(" ").map((g) => readWeather(g, false)!));

describe("METAR weather to ww (4677)", () => {
  it.each([
    ["-RA", 61], ["RA", 63], ["+RA", 65], ["-DZ", 51], ["-SN", 71], ["+SN", 75], ["-SHRA", 80], ["SHRA", 81], ["+SHRA", 82],
    ["-FZDZ FZFG", 56], ["FZRA", 67], ["TS", 17], ["TSRA", 95], ["+TSRA", 97], ["TSGRRA", 96], ["BR", 10], ["FG", 45],
    ["FZFG", 49], ["MIFG", 12], ["BCFG", 41], ["HZ", 5], ["FU", 4], ["BLSN", 38], ["VCSH", 16], ["+FC +TSRA BR", 97], ["-RASN", 68],
  ] as const)("%s -> %i", (groups, expected) => {
    expect(ww(groups)).toBe(expected);
  });
});

describe("metarToRecord", () => {
  it("maps a US METAR with remarks (P0010 = 0.10 in = 2.54 mm)", () => {
    const d = decodeMetar("SPECI KMCO 091857Z 05009KT 1 1/4SM R35L/5500VP6000FT +RA BR SCT029 BKN044 OVC060 25/23 A2994 RMK AO2 P0010 T02500233 $");
    expect(metarToRecord(d, 1757444220)).toEqual({ timestamp: 1757444220, wid: "65", visibility: 2012, temperature: 25, cloudCover: 100, precipitation: 2.54, precipitationConvective: 0 });
  });

  it("counts thunderstorm rain as convective and VV as a covered sky", () => {
    const d = decodeMetar("SPECI KPBI 091805Z 12017KT 6SM TSRA BR SCT020 BKN030CB BKN250 27/24 A2995 RMK AO2 WSHFT 1745 RAB00 OCNL LTGICCG E-SE TS E-SE MOV NE P0003 T02670239 $");
    expect(metarToRecord(d, 0)).toMatchObject({ wid: "95", temperature: 26.7, cloudCover: 75, precipitation: 0.76, precipitationConvective: 0.76 });
    expect(metarToRecord(decodeMetar("METAR CYAZ 091500Z 31003KT 1/4SM FG VV002 13/13 A2997 RMK FG8 SLP151"), 0)).toMatchObject({ cloudCover: 100, visibility: 402, wid: "45" });
    expect(metarToRecord(decodeMetar("LEGR 292300Z AUTO 23001KT CAVOK 03/M00 Q1019"), 0)).toEqual({ timestamp: 0, visibility: 10000, temperature: 3, cloudCover: 0 });
  });
});

// Code table 1819, iR: 0 in sections 1 and 3, 1 in section 1, 2 in section 3, 3 omitted
// (precipitation amount = 0), 4 omitted (amount not available) (WMO-No. 306; tabulated the same in
// diego-garro/AESynop synoptic/tables/tables_section1.py and MeteoSharp's PrecipationDataInclusion).
const outOfPlace = fixtureLines("ogimet-argentina-2026-03-out-of-place.txt");
const synopRecord = (prefix: string) => synopToRecord(decodeSynop(outOfPlace.find((l) => l.startsWith(prefix))!), 0);

describe("synopToRecord: precipitation where iR says (code table 1819), real Argentine reports", () => {
  it("iR = 2: section 3's 6RRRtR (87050 11124: 60382 = 38 mm), not section 1's 60474", () => {
    expect(synopRecord("AAXX 11124 87050")).toMatchObject({ precipitation: 38, precipitationConvective: 0 });
  });

  it("iR = 2 without a section 3 group: no amount, although section 1 writes 60171 (87050 10004)", () => {
    expect(synopRecord("AAXX 10004 87050").precipitation).toBeUndefined();
  });

  it("iR = 3: 0 mm although a group 69954 (0.5 mm) is written (87880 09124)", () => {
    expect(synopRecord("AAXX 09124 87880")).toMatchObject({ precipitation: 0, precipitationConvective: 0 });
  });

  it("iR = 1: section 1's group in place (87938 15124: 69954 = 0.5 mm; the repeated 68536 is not used)", () => {
    expect(synopRecord("AAXX 15124 87938").precipitation).toBe(0.5);
  });

  it("iR = 4: nothing; a 222 Nddff keeps cloud cover, temperature and cloud types (87803 12044)", () => {
    expect(synopRecord("AAXX 12044 87803")).toEqual({ timestamp: 0, visibility: 30000, temperature: 12.7, cloudCover: 25, cloudTypes: { cloudLow: 2, cloudMiddle: 0, cloudHigh: 8 } });
  });

  it("serves the group in its place: 87761 23.7 °C (not 10038), 87065 cloud types 1/0/0 (not 84845)", () => {
    expect(synopRecord("AAXX 11184 87761").temperature).toBe(23.7);
    expect(synopRecord("AAXX 14153 87065").cloudTypes).toEqual({ cloudLow: 1, cloudMiddle: 0, cloudHigh: 0 });
  });
});

describe("synopToRecord", () => {
  it("maps sections 1 and 3 with the cloud types", () => {
    const d = decodeSynop("AAXX 31001 78310 01470 70303 10250 20214 30094 40104 56004 60111 70398 8597/ 333 10320 20240 31/// 54416 56999 57982 59015 60117 70114 82818 87359 849// 90425 91118 91536 92013");
    // 6RRRtR of section 1: 011 mm over 6 h; W1 = 9 (thunderstorm) makes it convective.
    expect(synopToRecord(d, 100)).toEqual({ timestamp: 100, wid: "03", visibility: 20000, temperature: 25, cloudCover: 87.5, cloudTypes: { cloudLow: 9, cloudMiddle: 7 }, precipitation: 11, precipitationConvective: 11 });
  });

  it("gives 0 mm for iR = 3, nothing for iR = 4, and 100 % for an obscured sky", () => {
    expect(synopToRecord(decodeSynop("AAXX 01004 89022 32782 61506 30111 333 10178"), 0)).toMatchObject({ precipitation: 0, precipitationConvective: 0, cloudCover: 75 });
    const ir4 = synopToRecord(decodeSynop("AAXX 10054 87582 42960 00615 10201 20145 30192 40199 51004 555 10199"), 0);
    expect(ir4.precipitation).toBeUndefined();
    expect(ir4.cloudCover).toBe(0);
    expect(synopToRecord(decodeSynop("AAXX 17121 15108 01/92 92514 11028 21028 37901 48315 50001 69941 77174"), 0)).toMatchObject({ cloudCover: 100, temperature: -2.8, wid: "71", precipitation: 0.4, precipitationConvective: 0, visibility: 200 });
  });
});
