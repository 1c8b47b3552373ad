/**
 * Edge assignment with the coast tolerance: every slot whose box, widened by the territorial sea
 * (COAST_TOLERANCE_KM), meets a polygon edge must list that edge, or a point at sea within 12
 * nautical miles of the edge would miss it. Checked against brute force (every slot, every edge,
 * Liang-Barsky clipping) on Liechtenstein's Natural Earth municipalities at the production
 * resolution 5; the two rings that suffice for the plain boxes do not.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { COAST_TOLERANCE_KM } from "../../../datasets/admin/exact.ts";
import type { PolygonLayer } from "../../../datasets/admin/polygon-layer.ts";
import { computeLayout, SlotGrid } from "../../../datasets/admin/slot-grid.ts";
import { assignEdges, ringsFor } from "../../../pipeline/admin/assign-edges.ts";
import { parseFeatureCollection } from "../../../pipeline/admin/geojson.ts";
import { LayerBuilder } from "../../../pipeline/admin/layer-builder.ts";
import { computeSlotGeometry, type SlotGeometry } from "../../../pipeline/admin/slot-geometry.ts";

const FIXTURES = path.join(import.meta.dirname, "..", "..", "fixtures", "admin");
const RES = 5;

let layer: PolygonLayer;
let grid: SlotGrid;
let geom: SlotGeometry;

beforeAll(() => {
  const ne = parseFeatureCollection(readFileSync(path.join(FIXTURES, "ne-admin1-liechtenstein.geojson"), "utf8"), "ne-admin1-liechtenstein.geojson");
  const b = new LayerBuilder();
  for (const f of ne) b.add(f.rings);
  layer = b.finish();
  grid = new SlotGrid(computeLayout(RES));
  geom = computeSlotGeometry(grid);
}, 120_000);

/** Liang-Barsky: does segment a→b meet the closed box? */
function segmentMeetsBox(ax: number, ay: number, bx: number, by: number, x0: number, y0: number, x1: number, y1: number): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = bx - ax;
  const dy = by - ay;
  for (const [p, q] of [[-dx, ax - x0], [dx, x1 - ax], [-dy, ay - y0], [dy, y1 - ay]] as const) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const r = q / p;
    if (p < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 > t1) return false;
  }
  return true;
}

/** (slot, edge) pairs whose widened box the edge meets, by brute force. */
function expectedPairs(): Set<string> {
  const out = new Set<string>();
  const box = geom.adminBox;
  const { xy, chainStart } = layer;
  for (let s = 0; s < grid.slotCount; s++) {
    if (geom.fallback[s] === 1) continue;
    const o = 4 * s;
    if (box[o]! > 9.7 || box[o + 2]! < 9.4 || box[o + 1]! > 47.3 || box[o + 3]! < 47.0) continue;
    for (let c = 0; c < chainStart.length - 1; c++) {
      for (let e = chainStart[c]!; e < chainStart[c + 1]! - 1; e++) {
        if (segmentMeetsBox(xy[2 * e]!, xy[2 * e + 1]!, xy[2 * e + 2]!, xy[2 * e + 3]!, box[o]!, box[o + 1]!, box[o + 2]!, box[o + 3]!)) out.add(`${s}:${e}`);
      }
    }
  }
  return out;
}

function assignedPairs(rings: number): Set<string> {
  const got = assignEdges(grid, geom, layer, geom.adminBox, undefined, rings);
  const out = new Set<string>();
  for (let s = 0; s < grid.slotCount; s++) for (let k = got.start[s]!; k < got.start[s + 1]!; k++) out.add(`${s}:${got.edges[k]}`);
  return out;
}

describe("assignEdges with boxes widened by the territorial sea", () => {
  it("lists every edge that meets a widened box (brute force), with the rings ringsFor gives", () => {
    // The fixture lies within 9.47-9.64°E, 47.05-47.27°N; slots whose widened box misses that
    // window cannot meet an edge.
    expect(layer.xy.every((v, k) => (k % 2 === 0 ? v > 9.4 && v < 9.7 : v > 47.0 && v < 47.3))).toBe(true);
    const expected = expectedPairs();
    const rings = ringsFor(RES, COAST_TOLERANCE_KM);
    const got = assignedPairs(rings);
    const missing = [...expected].filter((p) => !got.has(p));
    expect(missing).toEqual([]);
    // The slots listing an edge reach well beyond the slots the polygons touch.
    expect(new Set([...expected].map((p) => p.split(":")[0])).size).toBeGreaterThan(20);
  });

  it("needs more than the two rings of the plain boxes", () => {
    const expected = expectedPairs();
    const got = assignedPairs(2);
    expect([...expected].filter((p) => !got.has(p)).length).toBeGreaterThan(0);
  });
});
