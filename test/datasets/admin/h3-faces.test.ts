/**
 * Our slots are H3 cells: for seeded random points, the hex we compute contains the point
 * exactly when h3-js (the reference implementation) puts the point and the hex centre in the
 * same cell. The same holds at the places a projection is likeliest to get wrong: the poles, the
 * antimeridian, and the 12 icosahedron vertices (where five faces meet; h3-js's pentagons).
 */
import { cellToLatLng, getPentagons, latLngToCell } from "h3-js";
import { describe, expect, it } from "vitest";
import { hexCenter, planeToLatLon } from "../../../datasets/admin/h3-faces.ts";
import { SlotGrid, computeLayout } from "../../../datasets/admin/slot-grid.ts";
import { mulberry32 } from "../../../datasets/common/prng.ts";
import { DEFAULT_ADMIN_RES } from "../../../pipeline/admin/step.ts";

type Grid = { res: number; grid: SlotGrid; co: ReturnType<SlotGrid["coordinates"]> };
const grids = new Map<number, Grid>();
function gridOf(res: number): Grid {
  let g = grids.get(res);
  if (!g) {
    const grid = new SlotGrid(computeLayout(res));
    grids.set(res, (g = { res, grid, co: grid.coordinates() }));
  }
  return g;
}

/** The h3-js cell of the centre of the hex our grid puts (lat, lon) in; undefined for no slot. */
function cellOfSlot({ res, grid, co }: Grid, lat: number, lon: number): string | undefined {
  const s = grid.slotOf(lat, lon);
  if (s < 0) return undefined;
  const [x, y] = hexCenter(co.i[s]!, co.j[s]!);
  const [clat, clon] = planeToLatLon(grid.bases[co.face[s]!]!, x, y);
  return latLngToCell(clat, clon, res);
}

describe("H3 face grid", () => {
  // The resolution of the admin artifact (pipeline/admin, --res default); 3 and 4 for the coarser
  // tables a smaller build may use.
  for (const res of [3, 4, DEFAULT_ADMIN_RES]) {
    it(`assigns points to the same cell as h3-js at resolution ${res}`, () => {
      const grid = gridOf(res);
      const rnd = mulberry32(res);
      let disagreements = 0;
      for (let k = 0; k < 20_000; k++) {
        const lat = (Math.asin(2 * rnd() - 1) * 180) / Math.PI;
        const lon = rnd() * 360 - 180;
        if (cellOfSlot(grid, lat, lon) !== latLngToCell(lat, lon, res)) disagreements++;
      }
      expect(disagreements).toBe(0);
    });
  }

  it("agrees with h3-js at the poles, on the antimeridian and at the 12 icosahedron vertices", () => {
    const grid = gridOf(DEFAULT_ADMIN_RES);
    const points: [number, number][] = [[90, 0], [-90, 0], [0, 180], [0, -180], [89.9999, 179.9999], [-45, -180]];
    // H3's pentagons are centred on the icosahedron's vertices (h3-js, the reference).
    points.push(...getPentagons(DEFAULT_ADMIN_RES).map((cell) => cellToLatLng(cell)));
    for (const [lat, lon] of points) expect(cellOfSlot(grid, lat, lon), `${lat}, ${lon}`).toBe(latLngToCell(lat, lon, DEFAULT_ADMIN_RES));
  });
});
