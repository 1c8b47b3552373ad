/**
 * A layer of polygon features (admin-1 areas, or timezones) as compact typed arrays: vertices in
 * one coordinate pair array, rings or open chains as vertex ranges, features as chain ranges.
 * Membership is decided by the even-odd rule over all chains of a feature, so a feature may be a
 * multipolygon with holes, or a set of chains whose union is closed (see FORMAT.md).
 *
 * Coordinates are longitude (x) and latitude (y) in degrees, kept at the source's precision.
 */
import { finishNow, type Work } from "../common/work.ts";

export interface PolygonLayer {
  /** Longitudes of all vertices. */
  xs: Float64Array;
  /** Latitudes of all vertices. */
  ys: Float64Array;
  /** Chain k has vertices chainStart[k] .. chainStart[k+1]-1 (length chains + 1). */
  chainStart: Uint32Array;
  /** Feature f has chains featureChainStart[f] .. featureChainStart[f+1]-1 (length features + 1). */
  featureChainStart: Uint32Array;
  /** Per feature: min lon, min lat, max lon, max lat. */
  featureBox: Float64Array;
}

export function featureCount(layer: PolygonLayer): number {
  return layer.featureChainStart.length - 1;
}

/**
 * Even-odd parity of the crossings of a horizontal ray from (px, py) towards +x with the edges
 * between vertices `from` .. `to` (exclusive end vertex index): the classic point-in-polygon test.
 */
export function rayParity(xs: Float64Array, ys: Float64Array, from: number, to: number, px: number, py: number): number {
  let inside = 0;
  let x1 = xs[from]!;
  let y1 = ys[from]!;
  for (let v = from + 1; v < to; v++) {
    const x2 = xs[v]!;
    const y2 = ys[v]!;
    if (y1 > py !== y2 > py && px < x1 + ((py - y1) * (x2 - x1)) / (y2 - y1)) inside ^= 1;
    x1 = x2;
    y1 = y2;
  }
  return inside;
}

const chainBoxCache = new WeakMap<PolygonLayer, Float64Array>();

/**
 * Per chain: min lon, min lat, max lon, max lat. Computed once per layer (not stored in the
 * artifact) so that brute force skips the chains a ray or a distance check cannot reach.
 */
/**
 * Writes the bounding box (minX, minY, maxX, maxY, degrees) of vertices [from, to) into
 * out[at..at+3], widened by `margin` on every side.
 */
export function writeVertexBox(layer: PolygonLayer, from: number, to: number, out: Float32Array | Float64Array, at: number, margin: number): void {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let v = from; v < to; v++) {
    const x = layer.xs[v]!;
    const y = layer.ys[v]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  out[at] = minX - margin;
  out[at + 1] = minY - margin;
  out[at + 2] = maxX + margin;
  out[at + 3] = maxY + margin;
}

export function chainBoxes(layer: PolygonLayer): Float64Array {
  return chainBoxCache.get(layer) ?? finishNow(chainBoxesWork(layer));
}

/** chainBoxes as work that yields between chains (datasets/common/work.ts). */
export function* chainBoxesWork(layer: PolygonLayer): Work<Float64Array> {
  let boxes = chainBoxCache.get(layer);
  if (boxes) return boxes;
  const n = layer.chainStart.length - 1;
  boxes = new Float64Array(4 * n);
  for (let c = 0; c < n; c++) {
    if ((c & 255) === 255) yield;
    writeVertexBox(layer, layer.chainStart[c]!, layer.chainStart[c + 1]!, boxes, 4 * c, 0);
  }
  chainBoxCache.set(layer, boxes);
  return boxes;
}

/** Whether feature f contains (px, py) by the even-odd rule over all its chains. */
export function featureContains(layer: PolygonLayer, f: number, px: number, py: number): boolean {
  const b = layer.featureBox;
  if (px < b[4 * f]! || py < b[4 * f + 1]! || px > b[4 * f + 2]! || py > b[4 * f + 3]!) return false;
  const cb = chainBoxes(layer);
  let inside = 0;
  for (let c = layer.featureChainStart[f]!; c < layer.featureChainStart[f + 1]!; c++) {
    // A chain whose latitudes do not span py, or that lies wholly west of px, has no crossing.
    if (py < cb[4 * c + 1]! || py > cb[4 * c + 3]! || px > cb[4 * c + 2]!) continue;
    inside ^= rayParity(layer.xs, layer.ys, layer.chainStart[c]!, layer.chainStart[c + 1]!, px, py);
  }
  return inside === 1;
}

/** Every feature that contains the point, in feature order (brute force; build and fallback only). */
export function featuresContaining(layer: PolygonLayer, px: number, py: number): number[] {
  const out: number[] = [];
  const n = featureCount(layer);
  for (let f = 0; f < n; f++) if (featureContains(layer, f, px, py)) out.push(f);
  return out;
}

/**
 * Parity of the crossings of segment q→r with the edges starting at vertices `from` .. `from+count-1`
 * (each edge runs from vertex v to v+1). An edge endpoint exactly on the line q→r counts as lying
 * on its "negative or zero" side for both edges that share it, so a path through a vertex is
 * counted consistently (a symbolic perturbation of the line).
 */
export function segmentParity(xs: Float64Array, ys: Float64Array, from: number, count: number, qx: number, qy: number, rx: number, ry: number): number {
  const dx = rx - qx;
  const dy = ry - qy;
  let parity = 0;
  let ax = xs[from]!;
  let ay = ys[from]!;
  let sa = dx * (ay - qy) - dy * (ax - qx) > 0;
  const end = from + count;
  for (let v = from + 1; v <= end; v++) {
    const bx = xs[v]!;
    const by = ys[v]!;
    const sb = dx * (by - qy) - dy * (bx - qx) > 0;
    if (sa !== sb) {
      // The edge straddles the line through q and r: does it cross between them?
      const ex = bx - ax;
      const ey = by - ay;
      const oq = ex * (qy - ay) - ey * (qx - ax);
      const or = ex * (ry - ay) - ey * (rx - ax);
      if ((oq > 0 && or < 0) || (oq < 0 && or > 0)) parity ^= 1;
    }
    ax = bx;
    ay = by;
    sa = sb;
  }
  return parity;
}

/** Kilometres per degree of latitude (and of longitude at the equator) in distance checks. */
export const KM_PER_DEGREE = 111.32;

/**
 * Distance in km from (px, py) to the edges `from` .. `from+count-1`, measured in the local
 * equirectangular plane at latitude py (x scaled by cos(py)); Infinity when count is 0.
 */
export function edgesDistanceKm(xs: Float64Array, ys: Float64Array, from: number, count: number, px: number, py: number): number {
  const k = Math.cos((py * Math.PI) / 180);
  let best = Infinity;
  let ax = (xs[from]! - px) * k;
  let ay = ys[from]! - py;
  for (let v = from + 1; v <= from + count; v++) {
    const bx = (xs[v]! - px) * k;
    const by = ys[v]! - py;
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const t = len2 > 0 ? Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2)) : 0;
    const ex = ax + t * dx;
    const ey = ay + t * dy;
    const d = ex * ex + ey * ey;
    if (d < best) best = d;
    ax = bx;
    ay = by;
  }
  return Math.sqrt(best) * KM_PER_DEGREE;
}

/** The feature with the nearest edge within `km` of the point (lowest id on a tie), brute force. */
export function nearestFeatureWithin(layer: PolygonLayer, px: number, py: number, km: number): number | undefined {
  const dLat = km / KM_PER_DEGREE;
  const dLon = dLat / Math.max(1e-6, Math.cos((Math.min(89.99, Math.abs(py) + dLat) * Math.PI) / 180));
  const b = layer.featureBox;
  const cb = chainBoxes(layer);
  let best: number | undefined;
  let bestD = km;
  for (let f = 0; f < featureCount(layer); f++) {
    if (px < b[4 * f]! - dLon || px > b[4 * f + 2]! + dLon || py < b[4 * f + 1]! - dLat || py > b[4 * f + 3]! + dLat) continue;
    for (let c = layer.featureChainStart[f]!; c < layer.featureChainStart[f + 1]!; c++) {
      if (px < cb[4 * c]! - dLon || px > cb[4 * c + 2]! + dLon || py < cb[4 * c + 1]! - dLat || py > cb[4 * c + 3]! + dLat) continue;
      const from = layer.chainStart[c]!;
      const d = edgesDistanceKm(layer.xs, layer.ys, from, layer.chainStart[c + 1]! - from - 1, px, py);
      if (d <= bestD && (best === undefined || d < bestD || f < best)) {
        bestD = d;
        best = f;
      }
    }
  }
  return best;
}
