/**
 * Grid point coordinates against the latitudes and longitudes ecCodes printed for its samples
 * (regular lat/lon to the micro-degree, Lambert conformal to its 3 printed decimals).
 */
import { describe, expect, it } from "vitest";
import { gridCoordinates } from "../../../pipeline/grib/coordinates.ts";
import { scanGrib } from "../../../pipeline/grib/scan.ts";
import { readEccodesLines } from "./eccodes-reference.ts";
import { fixture, fixtureBytes } from "./fixtures.ts";

function lonDistance(a: number, b: number): number {
  return Math.abs(((a - b) % 360 + 540) % 360 - 180);
}

describe("gridCoordinates", () => {
  for (const [name, tolerance] of [
    ["gfs-2p5deg-2011100800-f072-4msg.grib2", 1e-6],
    ["geavg-t06z-0p50-f006-3msg.grib2", 1e-6],
    ["ndfd-ds.maxt-msg1.grib2", 0.0005 + 1e-6],
  ] as const) {
    it(`${name}: every sample point at ecCodes' latitude and longitude`, () => {
      const fields = scanGrib(fixtureBytes(name), name);
      const refs = readEccodesLines(fixture(`${name}.eccodes.jsonl`));
      fields.forEach((field, k) => {
        const { lats, lons } = gridCoordinates(field);
        for (const s of refs[k]!.samples) {
          expect(Math.abs(lats[s.index]! - s.lat), `lat of point ${s.index}`).toBeLessThanOrEqual(tolerance);
          expect(lonDistance(lons[s.index]!, s.lon), `lon of point ${s.index}`).toBeLessThanOrEqual(tolerance);
        }
      });
    });
  }

  it("GRIB1 with a sign bit in Dj (zyGrib): latitudes from the first and last points", () => {
    const name = "gfs-0p5-zygrib-2013021406-2msg.grib1";
    const bytes = fixtureBytes(name);
    const [field] = scanGrib(bytes, name);
    // GDS octets 26-27 hold 0x81F4: -0.5 degree in sign and magnitude (ecCodes reads 33.268).
    const gds = field!.sections.grid;
    expect([bytes[gds + 25], bytes[gds + 26]]).toEqual([0x81, 0xf4]);
    const ref = readEccodesLines(fixture(`${name}.eccodes.jsonl`))[0]!;
    const { lats, lons } = gridCoordinates(field!);
    expect(field!.grid).toMatchObject({ ni: 85, nj: 47, dj: 0.5 });
    const first = ref.samples[0]!;
    const last = ref.samples[ref.samples.length - 1]!;
    expect([lats[first.index], lons[first.index]]).toEqual([first.lat, first.lon]);
    expect([lats[last.index], lons[last.index]]).toEqual([last.lat, last.lon]);
    // Row 1 (index 85) lies half a degree south of row 0: 48 - 0.5.
    expect(lats[85]).toBe(47.5);
  });

  it("longitudes are normalised to [-180, 180)", () => {
    const name = "gfs-2p5deg-2011100800-f072-4msg.grib2";
    const [field] = scanGrib(fixtureBytes(name), name);
    const { lons } = gridCoordinates(field!);
    expect(Math.min(...lons)).toBe(-180);
    expect(Math.max(...lons)).toBe(177.5);
  });
});
