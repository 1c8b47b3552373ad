import { describe, expect, it } from "vitest";
import type { ForecastGrid } from "../../../datasets/forecast/types.ts";
import { pasteValues, placeField } from "../../../pipeline/forecast/paste.ts";
import type { GribField, RegularLatLonGrid } from "../../../pipeline/grib/types.ts";

// The Alaska domain and the two sub-grids of the real file (first/last points from ecCodes):
// 55N..69N, 160E..179.5E (40 x 29) and 180E..200E (41 x 29), rows scanned south to north (0x40).
const DOMAIN: ForecastGrid = { lat0: 55, lon0: 160, dLat: 0.5, dLon: 0.5, nLat: 29, nLon: 81, wrapsLon: false };

function field(grid: RegularLatLonGrid): GribField {
  return { index: 1, grid, numberOfPoints: grid.ni * grid.nj } as unknown as GribField;
}

const west: RegularLatLonGrid = { kind: "latlon", ni: 40, nj: 29, lat1: 55, lon1: 160, lat2: 69, lon2: 179.5, di: 0.5, dj: 0.5, scanMode: 0x40 };
const east: RegularLatLonGrid = { kind: "latlon", ni: 41, nj: 29, lat1: 55, lon1: 180, lat2: 69, lon2: 200, di: 0.5, dj: 0.5, scanMode: 0x40 };

describe("pasting message grids on the domain grid", () => {
  it("puts both sub-grids side by side, covering every cell once", () => {
    const out = new Float32Array(DOMAIN.nLat * DOMAIN.nLon).fill(NaN);
    const w = placeField(field(west), DOMAIN, "f");
    const e = placeField(field(east), DOMAIN, "f");
    // Value = point index: the first point of the east grid (55N 180E) lands on column 40 of row 0.
    pasteValues(w, Float32Array.from({ length: 40 * 29 }, (_, k) => k), out);
    pasteValues(e, Float32Array.from({ length: 41 * 29 }, (_, k) => 10000 + k), out);
    expect(out.every((x) => !Number.isNaN(x))).toBe(true);
    expect(out[40]).toBe(10000);
    // Row 28 (69N), column 80 (200E): the east grid's last point.
    expect(out[28 * 81 + 80]).toBe(10000 + 41 * 29 - 1);
  });
  it("turns north-to-south rows over and takes the j increment from the first and last latitudes", () => {
    // zyGrib's Iberia grid: 48N..25N in 47 rows, stated increment 33.268 (wrong).
    const iberia: ForecastGrid = { lat0: 25, lon0: -30, dLat: 0.5, dLon: 0.5, nLat: 47, nLon: 85, wrapsLon: false };
    const p = placeField(field({ kind: "latlon", ni: 85, nj: 47, lat1: 48, lon1: -30, lat2: 25, lon2: 12, di: 0.5, dj: 33.268, scanMode: 0 }), iberia, "f");
    expect(p.correctedIncrement).toBe(true);
    expect(p.cells[0]).toBe(46 * 85); // first point, 48N 30W: top row
    expect(p.cells[85 * 47 - 1]).toBe(84); // last point, 25N 12E: bottom row, last column
  });
  it("refuses another resolution or points between cells, naming the file", () => {
    expect(() => placeField(field({ ...west, ni: 20, lon2: 179.5, di: 1 }), DOMAIN, "x.grib2")).toThrow(/x\.grib2.*0\.5 x 0\.5 degrees/);
    expect(() => placeField(field({ ...west, lon1: 160.25, lon2: 179.75 }), DOMAIN, "x.grib2")).toThrow(/x\.grib2.*on the domain grid/);
  });
});
