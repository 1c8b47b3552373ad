/**
 * Parameter and level names: facts of the NCEP GRIB2 tables (WMO code table 4.2 with NCEP's local
 * entries), NCEP GRIB1 parameter table 2 and wgrib2's level wording.
 */
import { describe, expect, it } from "vitest";
import { grib1ShortName } from "../../../pipeline/grib/grib1-names.ts";
import { grib2ShortName } from "../../../pipeline/grib/grib2-names.ts";
import { formatG, grib1ToGrib2Level, grib2LevelName } from "../../../pipeline/grib/level-names.ts";

const NCEP = 7;
const ECMWF = 98;

describe("GRIB2 short names", () => {
  it("WMO entries, for any centre", () => {
    expect(grib2ShortName(0, 0, 0, ECMWF)).toBe("TMP");
    expect(grib2ShortName(0, 2, 2, NCEP)).toBe("UGRD");
    expect(grib2ShortName(0, 1, 8, NCEP)).toBe("APCP");
    expect(grib2ShortName(0, 6, 1, NCEP)).toBe("TCDC");
    expect(grib2ShortName(0, 2, 22, NCEP)).toBe("GUST");
    expect(grib2ShortName(0, 3, 18, NCEP)).toBe("HPBL");
  });

  it("NCEP local entries (numbers 192-254) only for NCEP fields", () => {
    expect(grib2ShortName(0, 3, 192, NCEP)).toBe("MSLET");
    expect(grib2ShortName(0, 7, 192, NCEP)).toBe("LFTX");
    expect(grib2ShortName(0, 1, 192, NCEP)).toBe("CRAIN");
    expect(grib2ShortName(0, 6, 192, ECMWF)).toBe("var0_6_192");
  });
});

describe("GRIB1 short names (NCEP table 2)", () => {
  it("reads the WMO and NCEP parts of the table", () => {
    expect([11, 33, 34, 52, 61, 63, 71, 2].map((p) => grib1ShortName(2, p, NCEP))).toEqual(["TMP", "UGRD", "VGRD", "RH", "APCP", "ACPCP", "TCDC", "PRMSL"]);
    expect([130, 131, 132, 157, 180, 221].map((p) => grib1ShortName(2, p, NCEP))).toEqual(["MSLET", "LFTX", "4LFTX", "CAPE", "GUST", "HPBL"]);
  });

  it("does not apply NCEP's local part to other centres or tables", () => {
    expect(grib1ShortName(128, 167, ECMWF)).toBe("var128_167");
    expect(grib1ShortName(2, 180, ECMWF)).toBe("var2_180");
  });
});

describe("level names", () => {
  it("wgrib2 wording of single levels", () => {
    expect(grib2LevelName(103, 2)).toBe("2 m above ground");
    expect(grib2LevelName(100, 50000)).toBe("500 mb");
    expect(grib2LevelName(1, 0)).toBe("surface");
    expect(grib2LevelName(101, 0)).toBe("mean sea level");
    expect(grib2LevelName(200, 0)).toBe("entire atmosphere (considered as a single layer)");
    expect(grib2LevelName(109, 2e-6)).toBe("PV=2e-06 (Km^2/kg/s) surface");
    expect(grib2LevelName(4, 0)).toBe("0C isotherm");
  });

  it("layers", () => {
    expect(grib2LevelName(106, 0, 106, 0.1)).toBe("0-0.1 m below ground");
    expect(grib2LevelName(108, 3000, 108, 0)).toBe("30-0 mb above ground");
    expect(grib2LevelName(100, 100000, 100, 50000)).toBe("1000-500 mb");
  });

  it("GRIB1 table 3 levels map to the GRIB2 wording", () => {
    const name = (type: number, hi: number, lo: number): string => {
      const l = grib1ToGrib2Level(type, hi, lo);
      return grib2LevelName(l.type, l.value, l.type2, l.value2);
    };
    expect(name(105, 0, 2)).toBe("2 m above ground");
    expect(name(100, 0x01, 0xf4)).toBe("500 mb");
    expect(name(112, 0, 10)).toBe("0-0.1 m below ground");
    expect(name(116, 30, 0)).toBe("30-0 mb above ground");
    expect(name(200, 0, 0)).toBe("entire atmosphere (considered as a single layer)");
  });

  it("formats numbers like C's %g", () => {
    expect([formatG(0.1), formatG(2e-6), formatG(1e-4), formatG(1000000), formatG(1829)]).toEqual(["0.1", "2e-06", "0.0001", "1e+06", "1829"]);
  });
});
