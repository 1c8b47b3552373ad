/**
 * Our slots are H3 cells: for seeded random points, the hex we compute contains the point
 * exactly when h3-js (the reference implementation) puts the point and the hex centre in the
 * same cell.
 */
import { latLngToCell } from "h3-js";
import { describe, expect, it } from "vitest";
import { hexCenter, planeToLatLon } from "../../../datasets/admin/h3-faces.ts";
import { SlotGrid, computeLayout } from "../../../datasets/admin/slot-grid.ts";
import { mulberry32 } from "../../../datasets/common/prng.ts";

describe("H3 face grid", () => {
  for (const res of [3, 4]) {
    it(`assigns points to the same cell as h3-js at resolution ${res}`, () => {
      const grid = new SlotGrid(computeLayout(res));
      const co = grid.coordinates();
      const rnd = mulberry32(res);
      let disagreements = 0;
      for (let k = 0; k < 20_000; k++) {
        const lat = (Math.asin(2 * rnd() - 1) * 180) / Math.PI;
        const lon = rnd() * 360 - 180;
        const s = grid.slotOf(lat, lon);
        expect(s).toBeGreaterThanOrEqual(0);
        const [x, y] = hexCenter(co.i[s]!, co.j[s]!);
        const [clat, clon] = planeToLatLon(grid.bases[co.face[s]!]!, x, y);
        if (latLngToCell(clat, clon, res) !== latLngToCell(lat, lon, res)) disagreements++;
      }
      expect(disagreements).toBe(0);
    });
  }

  it("covers the poles, the antimeridian and the face vertices", () => {
    const grid = new SlotGrid(computeLayout(3));
    for (const [lat, lon] of [[90, 0], [-90, 0], [0, 180], [0, -180], [89.9999, 179.9999], [-45, -180]]) {
      expect(grid.slotOf(lat!, lon!)).toBeGreaterThanOrEqual(0);
    }
  });
});
