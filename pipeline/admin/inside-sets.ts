/**
 * Which features contain each slot's reference point. One exact point-in-polygon test seeds each
 * connected region of slots; from there, a breadth-first walk carries the answer from a hex
 * centre to its neighbour's, toggling a feature once per crossing of the segment between the two
 * centres with that feature's edges (those edges are all in the two slots' edge lists, because
 * the segment stays inside the two boxes). tests/validation then compares against brute force.
 */
import { HEX_NEIGHBORS } from "../../datasets/admin/h3-faces.ts";
import { featuresContaining, memoryAccess, segmentParity, vertexCount, type PolygonLayer } from "../../datasets/admin/polygon-layer.ts";
import type { SlotGrid } from "../../datasets/admin/slot-grid.ts";
import type { SlotEdges } from "./assign-edges.ts";
import type { SlotGeometry } from "./slot-geometry.ts";

/** Per slot: -1 none, a feature id, or -2 for "several" (then in `multi`). */
export interface InsideSets {
  primary: Int32Array;
  multi: Map<number, number[]>;
}

export function insideSetOf(sets: InsideSets, s: number): number[] {
  const p = sets.primary[s]!;
  if (p === -1) return [];
  if (p === -2) return sets.multi.get(s)!;
  return [p];
}

function setInside(sets: InsideSets, s: number, features: number[]): void {
  if (features.length === 0) sets.primary[s] = -1;
  else if (features.length === 1) sets.primary[s] = features[0]!;
  else {
    sets.primary[s] = -2;
    sets.multi.set(s, features);
  }
}

/** Feature of every vertex (for edges: the feature of the edge's first vertex). */
export function featureOfVertex(layer: PolygonLayer): Int32Array {
  const out = new Int32Array(vertexCount(layer));
  const fcs = layer.featureChainStart;
  for (let f = 0; f < fcs.length - 1; f++) {
    out.fill(f, layer.chainStart[fcs[f]!]!, layer.chainStart[fcs[f + 1]!]!);
  }
  return out;
}

export function computeInsideSets(grid: SlotGrid, geom: SlotGeometry, layer: PolygonLayer, slotEdges: SlotEdges, featOf: Int32Array): { sets: InsideSets; seeds: number } {
  const n = grid.slotCount;
  const sets: InsideSets = { primary: new Int32Array(n).fill(-1), multi: new Map() };
  const visited = new Uint8Array(n);
  const queue = new Int32Array(n);
  const { start, edges } = slotEdges;
  const { xy } = layer;
  const access = memoryAccess(layer);
  const c = geom.center;
  let seeds = 0;
  for (let seed = 0; seed < n; seed++) {
    if (visited[seed] === 1 || geom.fallback[seed] === 1) continue;
    seeds++;
    visited[seed] = 1;
    setInside(sets, seed, featuresContaining(access, c[2 * seed]!, c[2 * seed + 1]!));
    let head = 0;
    let tail = 0;
    queue[tail++] = seed;
    while (head < tail) {
      const p = queue[head++]!;
      const f = geom.face[p]!;
      const pi = geom.i[p]!;
      const pj = geom.j[p]!;
      for (const [di, dj] of HEX_NEIGHBORS) {
        const s = grid.slotAt(f, pi + di, pj + dj);
        if (s < 0 || visited[s] === 1 || geom.fallback[s] === 1) continue;
        const px = c[2 * p]!;
        const py = c[2 * p + 1]!;
        const sx = c[2 * s]!;
        const sy = c[2 * s + 1]!;
        if (Math.abs(px - sx) > 90) continue;
        visited[s] = 1;
        queue[tail++] = s;
        const insideP = insideSetOf(sets, p);
        if (start[p] === start[p + 1] && start[s] === start[s + 1]) {
          setInside(sets, s, insideP);
          continue;
        }
        const state = new Map<number, number>();
        for (const feat of insideP) state.set(feat, 1);
        // Merge the two ascending edge lists, each edge once.
        let a = start[p]!;
        const aEnd = start[p + 1]!;
        let b = start[s]!;
        const bEnd = start[s + 1]!;
        while (a < aEnd || b < bEnd) {
          let e: number;
          if (b >= bEnd || (a < aEnd && edges[a]! < edges[b]!)) e = edges[a++]!;
          else if (a >= aEnd || edges[b]! < edges[a]!) e = edges[b++]!;
          else {
            e = edges[a]!;
            a++;
            b++;
          }
          const feat = featOf[e]!;
          const before = state.get(feat) ?? 0;
          state.set(feat, before ^ segmentParity(xy, e, 1, px, py, sx, sy));
        }
        const inside: number[] = [];
        for (const [feat, bit] of state) if (bit === 1) inside.push(feat);
        inside.sort((x, y) => x - y);
        setInside(sets, s, inside);
      }
    }
  }
  return { sets, seeds };
}
