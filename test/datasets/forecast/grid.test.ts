import { describe, expect, it } from "vitest";
import { bilinear, bilinearPacked, cellLon, neighbours } from "../../../datasets/forecast/grid.ts";
import type { ForecastGrid } from "../../../datasets/forecast/types.ts";

// GFS 1 degree: 181 rows from 90S, 360 columns from 0E, wrapping.
const GLOBAL: ForecastGrid = { lat0: -90, lon0: 0, dLat: 1, dLon: 1, nLat: 181, nLon: 360, wrapsLon: true };
// The Iberia extract: 47 rows from 25N, 85 columns from 30W, 0.5 degree.
const IBERIA: ForecastGrid = { lat0: 25, lon0: -30, dLat: 0.5, dLon: 0.5, nLat: 47, nLon: 85, wrapsLon: false };

describe("forecast grid geometry", () => {
  it("finds the four cells and bilinear weights by hand", () => {
    // 40.25N 3.7W on the Iberia grid: rows (40.25-25)/0.5 = 30.5, columns (30-3.7)/0.5 = 52.6.
    const n = neighbours(IBERIA, 40.25, -3.7)!;
    expect(n.map((c) => [c.j, c.i])).toEqual([[30, 52], [30, 53], [31, 52], [31, 53]]);
    expect(n.map((c) => c.weight.toFixed(4))).toEqual(["0.2000", "0.3000", "0.2000", "0.3000"]);
    expect([n[0]!.lat, n[0]!.lon]).toEqual([40, -4]);
  });
  it("wraps across 0/360 and answers -180..180 or 0..360 longitudes alike", () => {
    const a = neighbours(GLOBAL, 10.5, -0.5)!;
    const b = neighbours(GLOBAL, 10.5, 359.5)!;
    expect(a.map((c) => c.i)).toEqual([359, 0, 359, 0]);
    expect(b).toEqual(a);
    expect(cellLon(GLOBAL, 359)).toBe(-1);
    expect(neighbours(GLOBAL, 90, 10)!.find((c) => c.weight === 1)!.lat).toBe(90);
  });
  it("is undefined outside a regional grid, and keeps its last row and column", () => {
    expect(neighbours(IBERIA, 48.01, 0)).toBeUndefined();
    expect(neighbours(IBERIA, 30, 12.5)).toBeUndefined();
    const corner = neighbours(IBERIA, 48, 12)!;
    expect(corner.filter((c) => c.weight > 0).map((c) => [c.lat, c.lon, c.weight])).toEqual([[48, 12, 1]]);
  });
  it("combines four series, renormalising around missing values", () => {
    const s = [Float32Array.of(1, 1), Float32Array.of(2, NaN), Float32Array.of(3, NaN), Float32Array.of(NaN, NaN)];
    const out = bilinear(s, [0.25, 0.25, 0.25, 0.25]);
    expect(out[0]).toBeCloseTo(2, 6);
    expect(out[1]).toBe(1);
    expect(bilinear([Float32Array.of(NaN), Float32Array.of(NaN), Float32Array.of(NaN), Float32Array.of(NaN)], [0.25, 0.25, 0.25, 0.25])[0]).toBeNaN();
  });
  it("combines packed series into a plain array exactly as into a Float32Array (float32 values)", () => {
    const series = [Float32Array.of(271.3, 0.1, NaN), Float32Array.of(272.9, NaN, NaN), Float32Array.of(270.05, 0.7, NaN), Float32Array.of(NaN, 1.3, NaN)];
    const weights = [0.2, 0.3, 0.2, 0.3];
    const packed = new Float32Array(12);
    series.forEach((s, c) => packed.set(s, 3 * c));
    const out = [0, 0, 0, 0, 0];
    bilinearPacked(packed, 0, 3, weights, out, 1);
    expect(out.slice(1, 4)).toEqual(Array.from(bilinear(series, weights)));
    expect([out[0], out[4]]).toEqual([0, 0]);
    expect(Math.fround(out[1]!)).toBe(out[1]);
  });
});
