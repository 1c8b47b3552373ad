import { describe, expect, it } from "vitest";
import { bilinear, locate, roundMetres, wrapsLongitude, type DemGrid } from "../../../datasets/elevation/grid.ts";

const SRTM3_N00E010: DemGrid = { width: 1201, height: 1201, lon0: 10, lat0: 1, resLonArcsec: 3, resLatArcsec: 3 };
const ETOPO5: DemGrid = { width: 4320, height: 2161, lon0: -180, lat0: 90, resLonArcsec: 300, resLatArcsec: 300 };

describe("locate", () => {
  it("puts a pixel centre exactly on its pixel", () => {
    // Row 600, column 300: lat 1 - 600/1200 = 0.5, lon 10 + 300/1200 = 10.25.
    expect(locate(SRTM3_N00E010, 0.5, 10.25)).toEqual({ col0: 300, col1: 301, fx: 0, row0: 600, row1: 601, fy: 0 });
  });

  it("covers the tile's closed extent, edges included, and nothing beyond", () => {
    expect(locate(SRTM3_N00E010, 1, 10)).toMatchObject({ row0: 0, col0: 0, fx: 0, fy: 0 });
    // The east and south edges: the last column/row, reached with weight 1.
    expect(locate(SRTM3_N00E010, 0, 11)).toEqual({ col0: 1199, col1: 1200, fx: 1, row0: 1199, row1: 1200, fy: 1 });
    expect(locate(SRTM3_N00E010, 1.0001, 10.5)).toBeUndefined();
    expect(locate(SRTM3_N00E010, 0.5, 11.0001)).toBeUndefined();
    expect(locate(SRTM3_N00E010, -0.0001, 10.5)).toBeUndefined();
  });

  it("wraps a global grid across ±180°", () => {
    expect(wrapsLongitude(ETOPO5)).toBe(true);
    expect(wrapsLongitude(SRTM3_N00E010)).toBe(false);
    // 180° is -180°: column 0.
    expect(locate(ETOPO5, 0, 180)).toMatchObject({ col0: 0, col1: 1, fx: 0 });
    expect(locate(ETOPO5, 0, -180)).toMatchObject({ col0: 0, col1: 1, fx: 0 });
    // Half way between 179°55' (column 4319) and 180° (column 0).
    const n = locate(ETOPO5, 0, 180 - 1 / 24)!;
    expect([n.col0, n.col1]).toEqual([4319, 0]);
    expect(n.fx).toBeCloseTo(0.5, 9);
  });

  it("takes the polar rows at the poles, and clamps beyond the centres only when asked", () => {
    expect(locate(ETOPO5, 90, 0, true)).toMatchObject({ row0: 0, fy: 0 });
    expect(locate(ETOPO5, -90, 0, true)).toEqual(expect.objectContaining({ row0: 2159, row1: 2160, fy: 1 }));
    const area: DemGrid = { width: 360, height: 180, lon0: -179.5, lat0: 89.5, resLonArcsec: 3600, resLatArcsec: 3600 };
    expect(locate(area, 90, 0)).toBeUndefined();
    expect(locate(area, 90, 0, true)).toMatchObject({ row0: 0, fy: 0 });
    expect(locate(area, -90, 0, true)).toMatchObject({ row1: 179, fy: 1 });
    // A regional grid is not stretched: beyond half a pixel there is no data even when clamping.
    const regional: DemGrid = { width: 40, height: 20, lon0: -30, lat0: 50, resLonArcsec: 3600, resLatArcsec: 3600 };
    expect(locate(regional, 50.5, -20, true)).toMatchObject({ row0: 0, fy: 0 });
    expect(locate(regional, 50.6, -20, true)).toBeUndefined();
    expect(locate(regional, 60, -20, true)).toBeUndefined();
  });

  it("recognises a tile at the antimeridian under both names of it", () => {
    const e179: DemGrid = { width: 1201, height: 1201, lon0: 179, lat0: 1, resLonArcsec: 3, resLatArcsec: 3 };
    expect(locate(e179, 0.5, -180)).toMatchObject({ col1: 1200, fx: 1 });
    const w180: DemGrid = { ...e179, lon0: -180 };
    expect(locate(w180, 0.5, 180)).toMatchObject({ col0: 0, fx: 0 });
  });
});

describe("bilinear", () => {
  it("interpolates between four pixels", () => {
    // 100 200 / 300 400 at a quarter across and half down:
    // top 100 + 0.25 * 100 = 125, bottom 300 + 0.25 * 100 = 325, then 125 + 0.5 * 200 = 225.
    expect(bilinear(100, 200, 300, 400, 0.25, 0.5, -32768)).toBe(225);
    expect(bilinear(100, 200, 300, 400, 0, 0, -32768)).toBe(100);
    expect(bilinear(100, 200, 300, 400, 1, 1, -32768)).toBe(400);
  });

  it("leaves voids out and renormalises, and gives undefined when only voids have weight", () => {
    // Weights at (0.5, 0.5) are 1/4 each; without the void: (200 + 300 + 400) / 3 = 300.
    expect(bilinear(-32768, 200, 300, 400, 0.5, 0.5, -32768)).toBe(300);
    // On pixel (0,0) itself the other pixels have zero weight.
    expect(bilinear(-32768, 200, 300, 400, 0, 0, -32768)).toBeUndefined();
    expect(bilinear(-32768, -32768, -32768, -32768, 0.3, 0.3, -32768)).toBeUndefined();
  });

  it("rounds halves away from zero", () => {
    expect([roundMetres(2.5), roundMetres(-2.5), roundMetres(-0.4), roundMetres(651.49)]).toEqual([3, -3, 0, 651]);
  });
});
