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

/** The resolution the admin artifact is built at (`--res`, default 5 in pipeline/admin/step.ts). */
const ADMIN_DEFAULT_RES = 5;
const grids = new Map<number, SlotGrid>();
const gridOf = (res: number): SlotGrid => grids.get(res) ?? grids.set(res, new SlotGrid(computeLayout(res))).get(res)!;

describe("H3 face grid", () => {
  // 5 is the resolution of the admin artifact (pipeline/admin, --res default); 3 and 4 for the
  // coarser tables a smaller build may use.
  for (const res of [3, 4, ADMIN_DEFAULT_RES]) {
    it(`assigns points to the same cell as h3-js at resolution ${res}`, () => {
      const grid = gridOf(res);
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
    const grid = gridOf(ADMIN_DEFAULT_RES);
    for (const [lat, lon] of [[90, 0], [-90, 0], [0, 180], [0, -180], [89.9999, 179.9999], [-45, -180]]) {
      expect(grid.slotOf(lat!, lon!)).toBeGreaterThanOrEqual(0);
    }
  });
});
