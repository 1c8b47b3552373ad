import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EMBEDDED_DIR } from "../../../datasets/common/paths.ts";
import { scanGrib } from "../../../pipeline/grib/scan.ts";
import { formatInventory, parseInventory, parseTimeField } from "../../../pipeline/forecast/inventory.ts";
import { rangesFor } from "../../../pipeline/forecast/ranges.ts";
import { selectEntries } from "../../../pipeline/forecast/match.ts";
import { gfsVariables } from "../../../pipeline/forecast/models/gfs/variables.ts";

const FIXTURES = path.join(import.meta.dirname, "..", "..", "fixtures", "forecast");

/** ecCodes' message list: offset, length, shortName, typeOfLevel, level, stepRange. */
async function ecCodesMessages(name: string): Promise<{ offset: number; length: number; stepRange: string }[]> {
  const text = await readFile(path.join(FIXTURES, name), "utf8");
  return text
    .split("\n")
    .filter((l) => l.trim() !== "" && !l.startsWith("#"))
    .map((l) => {
      const [offset, length, , , , stepRange] = l.trim().split(/\s+/) as [string, string, string, string, string, string];
      return { offset: Number(offset), length: Number(length), stepRange };
    });
}

describe("wgrib2 inventory lines", () => {
  it("parses the time field forms NOMADS publishes", () => {
    // Lines quoted from NOAA files in public issue threads (awslabs/open-data-registry#809,
    // NOAA-EMC/graphcast#45): "36-42 hour acc fcst", "240 hour fcst", "0-10 day acc fcst".
    expect(parseTimeField("36-42 hour acc fcst")).toEqual({ startHour: 36, endHour: 42, statistic: "accumulation" });
    expect(parseTimeField("240 hour fcst")).toEqual({ startHour: 240, endHour: 240, statistic: "instant" });
    expect(parseTimeField("0-10 day acc fcst")).toEqual({ startHour: 0, endHour: 240, statistic: "accumulation" });
    expect(parseTimeField("anl")).toEqual({ startHour: 0, endHour: 0, statistic: "instant" });
    expect(parseTimeField("5-6 hour max fcst").statistic).toBe("maximum");
    expect(parseTimeField("0-6 hour ave fcst").statistic).toBe("average");
  });
  it("gives each message its byte range up to the next message; fields of one message share it", () => {
    const text = [
      "1:0:d=2024062318:PRMSL:mean sea level:240 hour fcst:",
      "2:3244679:d=2024062318:VGRD:50 mb:240 hour fcst:",
      "3:6489358:d=2024062318:UGRD:10 m above ground:240 hour fcst:",
      "3.2:6489358:d=2024062318:VGRD:10 m above ground:240 hour fcst:",
      "4:9734037:d=2024062318:APCP:surface:0-10 day acc fcst:",
    ].join("\n");
    const e = parseInventory(text, "test.idx");
    expect(e.map((x) => [x.offset, x.end])).toEqual([[0, 3244679], [3244679, 6489358], [6489358, 9734037], [6489358, 9734037], [9734037, undefined]]);
    expect(e[0]!.referenceTime.toISOString()).toBe("2024-06-23T18:00:00.000Z");
    // Adjacent messages merge into one request; the last one is open-ended.
    expect(rangesFor([e[2]!, e[3]!, e[4]!])).toEqual([{ first: 6489358, last: undefined }]);
    expect(rangesFor([e[0]!, e[2]!])).toEqual([{ first: 0, last: 3244678 }, { first: 6489358, last: 9734036 }]);
  });
  it("refuses malformed lines naming the line", () => {
    expect(() => parseInventory("1:0:d=2024062318:TMP:2 m above ground:anl:\nnot an inventory line\n", "x.idx")).toThrow(/x\.idx, line 2/);
    expect(() => parseInventory("1:abc:d=2024062318:TMP:2 m above ground:anl:", "x.idx")).toThrow(/offset/);
    expect(() => parseInventory("1:0:d=20240623:TMP:2 m above ground:anl:", "x.idx")).toThrow(/YYYYMMDDHH/);
  });
  it("writes inventories whose byte ranges are ecCodes' message offsets (GRIB2 and GRIB1)", async () => {
    for (const [file, reference] of [
      ["gfs-2011090206-alaska-subgrids-f000-f384.grib2", "alaska-messages.eccodes.txt"],
      ["gfs-0p5-zygrib-2013021406-f000-f072.grib1", "iberia-messages.eccodes.txt"],
    ] as const) {
      const bytes = await readFile(path.join(EMBEDDED_DIR, "grib", file));
      const entries = parseInventory(formatInventory(scanGrib(bytes, file)), `${file}.idx`);
      const expected = await ecCodesMessages(reference);
      expect(entries.length).toBe(expected.length);
      for (const [k, e] of entries.entries()) {
        expect(e.offset).toBe(expected[k]!.offset);
        expect((e.end ?? bytes.length) - e.offset).toBe(expected[k]!.length);
        const [a, b] = expected[k]!.stepRange.split("-").map(Number) as [number, number | undefined];
        expect([e.startHour, e.endHour]).toEqual([a, b ?? a]);
      }
    }
  });

  it("picks the preferred alternative of a variable present in a GFS v16 inventory", () => {
    // Names, levels and time fields as in GFS 0.25 inventories of 2024 (dtcenter/METplus#2743):
    // the cloud layers come both instantaneous and averaged over the bucket window.
    const text = [
      "1:0:d=2024030700:LCDC:low cloud layer:12 hour fcst:",
      "2:1000:d=2024030700:LCDC:low cloud layer:6-12 hour ave fcst:",
      "3:2000:d=2024030700:HCDC:high cloud layer:6-12 hour ave fcst:",
      "4:3000:d=2024030700:TMP:2 m above ground:12 hour fcst:",
      "5:4000:d=2024030700:TMP:850 mb:12 hour fcst:",
      "6:5000:d=2024030700:TMP:500 mb:12 hour fcst:",
      "7:6000:d=2024030700:APCP:surface:6-12 hour acc fcst:",
      "8:7000:d=2024030700:APCP:surface:0-12 hour acc fcst:",
    ].join("\n");
    const picked = selectEntries(gfsVariables("current"), parseInventory(text, "gfs.idx")).map((e) => e.id);
    // Instantaneous low cloud preferred over its average; high cloud only averaged here; both APCP windows.
    expect(picked).toEqual(["1", "3", "4", "5", "7", "8"]);
  });
  it("falls back to names for inventories in other wording, and reads two-digit years", () => {
    const text = ["1:0:d=13021406:TMP:2 m above gnd:anl:", "2:3579:d=13021406:HGT:500 mb:anl:", "3:7158:d=13021406:PRMSL:MSL:anl:"].join("\n");
    const e = parseInventory(text, "grib1.inv");
    expect(e[0]!.referenceTime.toISOString()).toBe("2013-02-14T06:00:00.000Z");
    // By name only: HGT is a candidate too (the 0 degC isotherm height); the exact GRIB check on the
    // fetched message drops the 500 mb one.
    expect(selectEntries(gfsVariables("current"), e).map((x) => x.id)).toEqual(["1", "2", "3"]);
  });
});
