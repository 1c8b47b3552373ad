/**
 * Finds, for every slot, the polygon edges that enter its box. Each edge is sampled at a quarter
 * of the hex spacing; every sample's hex and the rings around it (on the nearest face, and on any
 * other face within a few hexes) are candidates, and an edge is kept for a candidate only when it
 * really meets the candidate's box. Two rings cover the slot boxes; boxes widened by the coast
 * tolerance need more (ringsFor). Output: per slot, its edges in ascending order.
 */
import { FACE_COUNT, HEX_NEIGHBORS } from "../../datasets/admin/h3-faces.ts";
import type { PolygonLayer } from "../../datasets/admin/polygon-layer.ts";
import type { SlotGrid } from "../../datasets/admin/slot-grid.ts";
import type { Progress } from "../common/progress.ts";
import type { SlotGeometry } from "./slot-geometry.ts";

export interface SlotEdges {
  /** Slot s's edges are edges[start[s]] .. edges[start[s+1]-1], ascending (length slots + 1). */
  start: Int32Array;
  edges: Int32Array;
}

const DEG = Math.PI / 180;

/** Angle between neighbouring hex centres at a resolution, in radians (about 16 km at res 5). */
export function hexSpacingRadians(res: number): number {
  const cells = 2 + 120 * Math.pow(7, res);
  return Math.sqrt((4 * Math.PI) / cells) * 1.07;
}

/**
 * Rings of candidate hexes around a sample so that every slot whose box, widened by `widenKm`, can
 * meet the sampled edge is among them. In hex spacings: the sample lies within 0.58 (the hex
 * circumradius) of its hex centre and within 0.125 of any point of the edge; a slot box reaches
 * 1.15 from its centre at the corners (a quarter of its size added on each side) and the widening
 * adds sqrt(2)·widenKm diagonally; K rings hold every centre within K·cos 30°.
 */
export function ringsFor(res: number, widenKm: number): number {
  const spacingKm = hexSpacingRadians(res) * 6371;
  return Math.max(2, Math.ceil((0.58 + 0.125 + 1.15 + (Math.SQRT2 * widenKm) / spacingKm) / Math.cos(Math.PI / 6)));
}

/** Whether segment a→b meets the box (conservative: may say yes for a near miss of 1e-12°). */
function edgeMeetsBox(ax: number, ay: number, bx: number, by: number, box: Float64Array, o: number): boolean {
  const minX = box[o]!;
  const minY = box[o + 1]!;
  const maxX = box[o + 2]!;
  const maxY = box[o + 3]!;
  if (Math.max(ax, bx) < minX || Math.min(ax, bx) > maxX || Math.max(ay, by) < minY || Math.min(ay, by) > maxY) return false;
  const dx = bx - ax;
  const dy = by - ay;
  const s1 = dx * (minY - ay) - dy * (minX - ax);
  const s2 = dx * (minY - ay) - dy * (maxX - ax);
  const s3 = dx * (maxY - ay) - dy * (minX - ax);
  const s4 = dx * (maxY - ay) - dy * (maxX - ax);
  return !((s1 > 0 && s2 > 0 && s3 > 0 && s4 > 0) || (s1 < 0 && s2 < 0 && s3 < 0 && s4 < 0));
}

class GrowableInt32 {
  data = new Int32Array(1 << 20);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
}

/** `boxes`: per slot min lon, min lat, max lon, max lat (the slot boxes, or the widened admin boxes). */
export function assignEdges(grid: SlotGrid, geom: SlotGeometry, layer: PolygonLayer, boxes: Float64Array, progress?: Progress, rings = 2): SlotEdges {
  const spacing = hexSpacingRadians(grid.layout.res);
  const stepDeg = (spacing / DEG) / 4;
  // Faces whose centre is nearly as close as the nearest one: the sample is within a few hexes of an edge.
  const faceSlack = 6 * spacing;
  const n = grid.slotCount;
  const lastEdge = new Int32Array(n).fill(-1);
  const pairSlot = new GrowableInt32();
  const pairEdge = new GrowableInt32();
  const { xy, chainStart } = layer;
  const bases = grid.bases;
  const candidates: number[] = [];
  const dots = new Float64Array(FACE_COUNT);
  const chains = chainStart.length - 1;
  for (let c = 0; c < chains; c++) {
    for (let e = chainStart[c]!; e < chainStart[c + 1]! - 1; e++) {
      const ax = xy[2 * e]!;
      const ay = xy[2 * e + 1]!;
      const bx = xy[2 * e + 2]!;
      const by = xy[2 * e + 3]!;
      const samples = Math.max(1, Math.ceil(Math.max(Math.abs(bx - ax), Math.abs(by - ay)) / stepDeg));
      for (let k = 0; k <= samples; k++) {
        const t = k / samples;
        const lon = (ax + (bx - ax) * t) * DEG;
        const lat = (ay + (by - ay) * t) * DEG;
        const cp = Math.cos(lat);
        const px = cp * Math.cos(lon);
        const py = cp * Math.sin(lon);
        const pz = Math.sin(lat);
        let best = -2;
        for (let f = 0; f < FACE_COUNT; f++) {
          const nv = bases[f]!.n;
          dots[f] = nv[0]! * px + nv[1]! * py + nv[2]! * pz;
          if (dots[f]! > best) best = dots[f]!;
        }
        candidates.length = 0;
        for (let f = 0; f < FACE_COUNT; f++) {
          if (dots[f]! < best - faceSlack) continue;
          const s0 = grid.slotOnFace(f, px, py, pz);
          if (s0 < 0) continue;
          const fi = geom.i[s0]!;
          const fj = geom.j[s0]!;
          candidates.push(s0);
          // Rings 1..rings around the sample's hex, one sextant (k steps along direction d, m
          // along d + 1, 1 <= k + m <= rings, k >= 1) per direction.
          for (let d = 0; d < 6; d++) {
            const [di, dj] = HEX_NEIGHBORS[d]!;
            const [ei, ej] = HEX_NEIGHBORS[(d + 1) % 6]!;
            for (let k = 1; k <= rings; k++) {
              for (let m = 0; k + m <= rings; m++) candidates.push(grid.slotAt(f, fi + k * di + m * ei, fj + k * dj + m * ej));
            }
          }
        }
        for (const s of candidates) {
          if (s < 0 || lastEdge[s] === e || geom.fallback[s] === 1) continue;
          if (edgeMeetsBox(ax, ay, bx, by, boxes, 4 * s)) {
            lastEdge[s] = e;
            pairSlot.push(s);
            pairEdge.push(e);
          }
        }
      }
      progress?.tick();
    }
  }
  // Counting sort by slot; stable, so each slot's edges stay in ascending order.
  const start = new Int32Array(n + 1);
  for (let p = 0; p < pairSlot.length; p++) start[pairSlot.data[p]! + 1]!++;
  for (let s = 0; s < n; s++) start[s + 1]! += start[s]!;
  const fill = start.slice(0, n);
  const edges = new Int32Array(pairSlot.length);
  for (let p = 0; p < pairSlot.length; p++) edges[fill[pairSlot.data[p]!]!++] = pairEdge.data[p]!;
  return { start, edges };
}
