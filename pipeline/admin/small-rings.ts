/**
 * Small closed rings of a zone's boundary chains, grouped into polygons. The geo-tz quadtree
 * cuts polygons at quad lines, and after the cut edges cancel (geotz-package.ts) a small
 * polygon that straddled a line is left as several chains meeting end to end: joining chains at
 * equal endpoints gives the rings back. Rings nested in another ring of the same zone are its
 * holes (or islands in those holes); each group's rings decide membership by the even-odd rule.
 */
import { SMALL_POLYGON_DEGREES } from "./geotz-package.ts";

function extent(c: Float64Array): [number, number, number, number] {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let k = 0; k < c.length; k += 2) {
    minX = Math.min(minX, c[k]!);
    maxX = Math.max(maxX, c[k]!);
    minY = Math.min(minY, c[k + 1]!);
    maxY = Math.max(maxY, c[k + 1]!);
  }
  return [minX, minY, maxX, maxY];
}

function isSmall(e: [number, number, number, number]): boolean {
  return e[2] - e[0] < SMALL_POLYGON_DEGREES && e[3] - e[1] < SMALL_POLYGON_DEGREES;
}

const key = (x: number, y: number): string => `${x},${y}`;

/** Joins small chains into closed rings; chains that do not close are dropped. */
export function closedSmallRings(chains: readonly Float64Array[]): Float64Array[] {
  const small = chains.filter((c) => c.length >= 4 && isSmall(extent(c)));
  const ends = new Map<string, number[]>();
  small.forEach((c, i) => {
    for (const k of [key(c[0]!, c[1]!), key(c[c.length - 2]!, c[c.length - 1]!)]) {
      const list = ends.get(k) ?? [];
      list.push(i);
      ends.set(k, list);
    }
  });
  const used = new Uint8Array(small.length);
  const rings: Float64Array[] = [];
  for (let i = 0; i < small.length; i++) {
    if (used[i]) continue;
    used[i] = 1;
    const pts: number[] = Array.from(small[i]!);
    const startKey = key(pts[0]!, pts[1]!);
    let closed = key(pts[pts.length - 2]!, pts[pts.length - 1]!) === startKey;
    while (!closed) {
      const endKey = key(pts[pts.length - 2]!, pts[pts.length - 1]!);
      const next = (ends.get(endKey) ?? []).find((j) => used[j] === 0);
      if (next === undefined) break;
      used[next] = 1;
      const c = small[next]!;
      const forward = key(c[0]!, c[1]!) === endKey;
      const seq: number[] = [];
      if (forward) for (let k = 2; k < c.length; k += 2) seq.push(c[k]!, c[k + 1]!);
      else for (let k = c.length - 4; k >= 0; k -= 2) seq.push(c[k]!, c[k + 1]!);
      pts.push(...seq);
      closed = key(pts[pts.length - 2]!, pts[pts.length - 1]!) === startKey;
    }
    if (closed && pts.length >= 8 && isSmall(extent(Float64Array.from(pts)))) rings.push(Float64Array.from(pts));
  }
  return rings;
}

function ringContains(ring: Float64Array, px: number, py: number): boolean {
  let inside = false;
  for (let k = 0; k + 2 < ring.length; k += 2) {
    const x1 = ring[k]!;
    const y1 = ring[k + 1]!;
    const x2 = ring[k + 2]!;
    const y2 = ring[k + 3]!;
    if (y1 > py !== y2 > py && px < x1 + ((py - y1) * (x2 - x1)) / (y2 - y1)) inside = !inside;
  }
  return inside;
}

/** Groups rings by nesting: each group is an outermost ring followed by the rings inside it. */
export function groupByNesting(rings: readonly Float64Array[]): Float64Array[][] {
  const parent = rings.map((r, i) => {
    let best = -1;
    let bestArea = Infinity;
    rings.forEach((o, j) => {
      if (j === i) return;
      const e = extent(o);
      const area = (e[2] - e[0]) * (e[3] - e[1]);
      if (area < bestArea && ringContains(o, r[0]!, r[1]!)) {
        best = j;
        bestArea = area;
      }
    });
    return best;
  });
  const root = (i: number): number => {
    let r = i;
    for (let guard = 0; parent[r]! >= 0 && guard < rings.length; guard++) r = parent[r]!;
    return r;
  };
  const groups = new Map<number, Float64Array[]>();
  rings.forEach((r, i) => {
    const g = root(i);
    const list = groups.get(g) ?? [];
    if (g === i) list.unshift(r);
    else list.push(r);
    groups.set(g, list);
  });
  return [...groups.values()];
}
