/**
 * Report splitting of real files (NWS collectives, GTS bulletins, aviationweather CSV) and dating
 * from file names and bulletin references (calendar facts).
 */
import { describe, expect, it } from "vitest";
import { parseReferenceOption, referenceFromFileName, resolveTimestamp } from "../../../pipeline/stations/ingest/dating.ts";
import { splitReports } from "../../../pipeline/stations/ingest/split.ts";
import { fixture } from "./fixtures.ts";

describe("splitReports", () => {
  it("splits an NWS collective: continuation lines joined, '=' ends a report, the bulletin heading is not a report", async () => {
    const reports = await splitReports(fixture("collective.txt"));
    expect(reports.map((r) => r.text.split(" ")[0] === "METAR" ? r.text.split(" ")[1] : r.text.split(" ")[0])).toEqual([
      "KSPS", "KMIA", "KMIA", "KALO", "PAJN", "RJSK", "KEST", "KAMW", "KAMW", "KALO", "KALO", "QQQQ", "QQQQ", "1QQQ",
    ]);
    expect(reports.every((r) => r.family === "METAR")).toBe(true);
    expect(reports[2]!.text).toBe("KMIA 081403Z 16032G45KT 1/2SM +FC +TSRA BR SCT005 BKN016CB OVC034 23/19 A3003 RMK TORNADO B02 OHD MOV NE AO2 PK WND 15045/0202 WSHFT 0141 PRESRR CONS LTGICCCCG OHD TS OHD MOV NE P0046 $");
  });

  it("keeps the NUL byte inside the report of nullbyte.txt (the decoder lists it) and reads the AFOS MTR line as METAR", async () => {
    const reports = await splitReports(fixture("nullbyte.txt"));
    expect(reports).toHaveLength(1);
    expect(reports[0]!.family).toBe("METAR");
    expect(reports[0]!.text.startsWith("SPECI KNZY 231401Z AUTO")).toBe(true);
    expect(reports[0]!.text).toContain("\u0000");
  });

  it("gives each SYNOP of a bulletin its section 0 and the bulletin's BBB", async () => {
    const cuba = await splitReports(fixture("SMCU20_MUHV_310000.txt"));
    expect(cuba.every((r) => r.family === "SYNOP" && r.text.startsWith("AAXX 31001 "))).toBe(true);
    expect(cuba.map((r) => r.text.split(" ")[2]).slice(0, 4)).toEqual(["78310", "78315", "78318", "78322"]);
    const ccb = await splitReports(fixture("A_SMRO01YRBK171800CCB_C_EDZW_20230118055302_52230688.txt"));
    expect(ccb).toHaveLength(1);
    expect(ccb[0]).toMatchObject({ family: "SYNOP", bulletinBbb: "CCB" });
    // Blank lines inside a report and a line holding only "55300" do not split it.
    expect(ccb[0]!.text).toBe("AAXX 17181 15280 01/90 92012 11041 21047 37349 47889 50004 60002 74143 333 11041 21059 3//// 49075 55300 0//// 20000 3//// 60007 91020 911// 92818 92946");
  });

  it("reads raw_text and observed_utc of the aviationweather CSV", async () => {
    const reports = await splitReports(fixture("aviationweather-breakers.csv"));
    expect(reports[0]).toMatchObject({ family: "METAR", text: "METAR KMWN 120352Z 31026G35KT 1/16SM FG VV000 03/03 RMK FG INTMT", line: 2 });
    expect(reports[0]!.reference).toMatchObject({ year: 2025, month: 9, instant: Date.UTC(2025, 8, 12, 3, 52) / 1000 });
  });

  it("reads OGIMET getsynop lines with their date fields", async () => {
    const [r] = await splitReports(fixture("ogimet-getsynop-87736.txt"));
    expect(r).toMatchObject({ family: "SYNOP", text: "AAXX 01183 87736 11463 41813 10330 20148 39982 40072 5//// 60001 70700 83105 333 56600 83818" });
    expect(r!.reference).toMatchObject({ year: 2026, month: 1, instant: Date.UTC(2026, 0, 1, 18) / 1000 });
  });

  it("reads the Canadian SA lines of sa.txt as reports the METAR decoder will reject (no station)", async () => {
    const reports = await splitReports(fixture("sa.txt"));
    expect(reports.map((r) => r.text.slice(0, 6))).toEqual(["WXL SA", "WZR SA", "XEL SA", "XPS SA"]);
  });
});

describe("dating", () => {
  it("takes the filing time of a DWD/WMO file name and a month-only name", () => {
    expect(referenceFromFileName("A_SMRO01YRBK171800CCB_C_EDZW_20230118055302_52230688.txt")).toMatchObject({ year: 2023, month: 1, instant: Date.UTC(2023, 0, 18, 5, 53) / 1000 });
    expect(referenceFromFileName("ogimet-argentina-2026-03_days01-17.txt.gz")).toEqual({ year: 2026, month: 3, origin: "file name" });
    expect(referenceFromFileName("SMCU20_MUHV_310000.txt")).toBeUndefined();
    expect(referenceFromFileName("metars-global-2186.txt")).toBeUndefined();
  });

  it("puts a report of the 31st filed on the 1st into the previous month, across a year end", () => {
    const ref = parseReferenceOption("2026-01-01")!;
    expect(resolveTimestamp(ref, 31, 23, 54)).toBe(Date.UTC(2025, 11, 31, 23, 54) / 1000);
    expect(resolveTimestamp(ref, 1, 0, 0)).toBe(Date.UTC(2026, 0, 1, 0, 0) / 1000);
  });

  it("refuses a day the month does not have instead of rolling it over", () => {
    expect(resolveTimestamp(parseReferenceOption("2026-02")!, 30, 0, 0)).toBeUndefined();
    expect(resolveTimestamp(parseReferenceOption("2024-02")!, 29, 12, 0)).toBe(Date.UTC(2024, 1, 29, 12) / 1000);
    expect(parseReferenceOption("2026-13")).toBeUndefined();
  });
});
