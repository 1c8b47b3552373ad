/**
 * A layer of polygon features (admin-1 areas, or timezones) as compact typed arrays: vertices as
 * interleaved (lon, lat) pairs, rings or open chains as vertex ranges, features as chain ranges.
 * Membership is decided by the even-odd rule over all chains of a feature, so a feature may be a
 * multipolygon with holes, or a set of chains whose union is closed (see FORMAT.md).
 *
 * The geometric kernels take a vertex array and a vertex index into it, so that the same code
 * runs on a whole layer in memory (the pipeline) and on a run of vertices just read from the
 * artifact (the server). Coordinates are longitude (x) and latitude (y) in degrees, kept at the
 * source's precision.
 */

export interface PolygonLayer {
  /** Vertex v is (xy[2v], xy[2v+1]) = (lon, lat). */
  xy: Float64Array;
  /** Chain k has vertices chainStart[k] .. chainStart[k+1]-1 (length chains + 1). */
  chainStart: Uint32Array;
  /** Per chain: min lon, min lat, max lon, max lat of its vertices. */
  chainBox: Float64Array;
  /** Chain k's edges are cut into chunks chainChunkStart[k] .. chainChunkStart[k+1]-1 (length chains + 1). */
  chainChunkStart: Uint32Array;
  /**
   * Per chunk: the box of its up to CHAIN_CHUNK_EDGES edges, widened by CHUNK_MARGIN (float32).
   * Chunk j of chain k starts at edge chainStart[k] + CHAIN_CHUNK_EDGES * (j - chainChunkStart[k]).
   */
  chunkBox: Float32Array;
  /** Feature f has chains featureChainStart[f] .. featureChainStart[f+1]-1 (length features + 1). */
  featureChainStart: Uint32Array;
  /** Per feature: min lon, min lat, max lon, max lat. */
  featureBox: Float64Array;
}

/** Edges per chunk of a chain: the nearest-edge search skips a chunk whose box lies farther than the best distance. */
export const CHAIN_CHUNK_EDGES = 32;
/** Degrees added around a float32 chunk box: more than float32's rounding at 180° (1.5e-5°). */
export const CHUNK_MARGIN = 1e-4;

/**
 * What the brute-force searches read of a layer: the feature tables at hand, chains and vertices
 * by range. `memoryAccess` serves a layer in memory (views, no copy); the admin index serves its
 * file (datasets/admin/admin-index.ts) with a read per range.
 */
export interface LayerAccess {
  readonly featureBox: Float64Array;
  readonly featureChainStart: Uint32Array;
  /** chainStart[c0] .. chainStart[c1], inclusive (c1 - c0 + 1 entries). */
  chainStarts(c0: number, c1: number): Uint32Array;
  /** The boxes of chains c0 .. c1 - 1 (4 numbers each). */
  chainBoxes(c0: number, c1: number): Float64Array;
  /** Vertices v0 .. v1 - 1 as (lon, lat) pairs. */
  vertices(v0: number, v1: number): Float64Array;
  /** chainChunkStart[c0] .. chainChunkStart[c1], inclusive. */
  chainChunks(c0: number, c1: number): Uint32Array;
  /** The boxes of chunks j0 .. j1 - 1 (4 numbers each). */
  chunkBoxes(j0: number, j1: number): Float32Array;
}

export function memoryAccess(layer: PolygonLayer): LayerAccess {
  return {
    featureBox: layer.featureBox,
    featureChainStart: layer.featureChainStart,
    chainStarts: (c0, c1) => layer.chainStart.subarray(c0, c1 + 1),
    chainBoxes: (c0, c1) => layer.chainBox.subarray(4 * c0, 4 * c1),
    vertices: (v0, v1) => layer.xy.subarray(2 * v0, 2 * v1),
    chainChunks: (c0, c1) => layer.chainChunkStart.subarray(c0, c1 + 1),
    chunkBoxes: (j0, j1) => layer.chunkBox.subarray(4 * j0, 4 * j1),
  };
}

export function featureCount(layer: { featureChainStart: Uint32Array }): number {
  return layer.featureChainStart.length - 1;
}

export function vertexCount(layer: PolygonLayer): number {
  return layer.xy.length / 2;
}

/**
 * Even-odd parity of the crossings of a horizontal ray from (px, py) towards +x with the edges
 * between vertices `from` .. `to` (exclusive end vertex index): the classic point-in-polygon test.
 */
export function rayParity(xy: Float64Array, from: number, to: number, px: number, py: number): number {
  let inside = 0;
  let x1 = xy[2 * from]!;
  let y1 = xy[2 * from + 1]!;
  for (let v = from + 1; v < to; v++) {
    const x2 = xy[2 * v]!;
    const y2 = xy[2 * v + 1]!;
    if (y1 > py !== y2 > py && px < x1 + ((py - y1) * (x2 - x1)) / (y2 - y1)) inside ^= 1;
    x1 = x2;
    y1 = y2;
  }
  return inside;
}

/**
 * Writes the bounding box (minX, minY, maxX, maxY, degrees) of vertices [from, to) into
 * out[at..at+3], widened by `margin` on every side.
 */
export function writeVertexBox(xy: Float64Array, from: number, to: number, out: Float32Array | Float64Array, at: number, margin: number): void {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let v = from; v < to; v++) {
    const x = xy[2 * v]!;
    const y = xy[2 * v + 1]!;
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

/** Whether feature f contains (px, py) by the even-odd rule over all its chains. */
export function featureContains(layer: LayerAccess, f: number, px: number, py: number): boolean {
  const b = layer.featureBox;
  if (px < b[4 * f]! || py < b[4 * f + 1]! || px > b[4 * f + 2]! || py > b[4 * f + 3]!) return false;
  const c0 = layer.featureChainStart[f]!;
  const c1 = layer.featureChainStart[f + 1]!;
  const starts = layer.chainStarts(c0, c1);
  const cb = layer.chainBoxes(c0, c1);
  let inside = 0;
  for (let c = 0; c < c1 - c0; c++) {
    // A chain whose latitudes do not span py, or that lies wholly west of px, has no crossing.
    if (py < cb[4 * c + 1]! || py > cb[4 * c + 3]! || px > cb[4 * c + 2]!) continue;
    const xy = layer.vertices(starts[c]!, starts[c + 1]!);
    inside ^= rayParity(xy, 0, starts[c + 1]! - starts[c]!, px, py);
  }
  return inside === 1;
}

/** Every feature that contains the point, in feature order (brute force: build and fallback only). */
export function featuresContaining(layer: LayerAccess, px: number, py: number): number[] {
  const out: number[] = [];
  const n = featureCount(layer);
  for (let f = 0; f < n; f++) if (featureContains(layer, f, px, py)) out.push(f);
  return out;
}

/** The first feature containing the point, or undefined (brute force). */
export function firstFeatureContaining(layer: LayerAccess, px: number, py: number): number | undefined {
  const n = featureCount(layer);
  for (let f = 0; f < n; f++) if (featureContains(layer, f, px, py)) return f;
  return undefined;
}

/**
 * Parity of the crossings of segment q→r with the edges starting at vertices `from` .. `from+count-1`
 * (each edge runs from vertex v to v+1). An edge endpoint exactly on the line q→r counts as lying
 * on its "negative or zero" side for both edges that share it, so a path through a vertex is
 * counted consistently (a symbolic perturbation of the line).
 */
export function segmentParity(xy: Float64Array, from: number, count: number, qx: number, qy: number, rx: number, ry: number): number {
  const dx = rx - qx;
  const dy = ry - qy;
  let parity = 0;
  let ax = xy[2 * from]!;
  let ay = xy[2 * from + 1]!;
  let sa = dx * (ay - qy) - dy * (ax - qx) > 0;
  const end = from + count;
  for (let v = from + 1; v <= end; v++) {
    const bx = xy[2 * v]!;
    const by = xy[2 * v + 1]!;
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
export function edgesDistanceKm(xy: Float64Array, from: number, count: number, px: number, py: number): number {
  const k = Math.cos((py * Math.PI) / 180);
  let best = Infinity;
  let ax = (xy[2 * from]! - px) * k;
  let ay = xy[2 * from + 1]! - py;
  for (let v = from + 1; v <= from + count; v++) {
    const bx = (xy[2 * v]! - px) * k;
    const by = xy[2 * v + 1]! - py;
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

/**
 * The chunk boxes of chains [c0, c1): CHAIN_CHUNK_EDGES edges each, so that a search by distance
 * reads and measures only the chunks near enough. Computed at build time (stored in the artifact).
 */
export function chainChunkBoxes(xy: Float64Array, chainStart: Uint32Array): { chainChunkStart: Uint32Array; chunkBox: Float32Array } {
  const chains = chainStart.length - 1;
  const chainChunkStart = new Uint32Array(chains + 1);
  for (let c = 0; c < chains; c++) {
    const edges = Math.max(0, chainStart[c + 1]! - chainStart[c]! - 1);
    chainChunkStart[c + 1] = chainChunkStart[c]! + Math.ceil(edges / CHAIN_CHUNK_EDGES);
  }
  const chunkBox = new Float32Array(4 * chainChunkStart[chains]!);
  for (let c = 0; c < chains; c++) {
    const last = chainStart[c + 1]! - 1;
    for (let j = chainChunkStart[c]!; j < chainChunkStart[c + 1]!; j++) {
      const from = chainStart[c]! + CHAIN_CHUNK_EDGES * (j - chainChunkStart[c]!);
      writeVertexBox(xy, from, Math.min(last, from + CHAIN_CHUNK_EDGES) + 1, chunkBox, 4 * j, CHUNK_MARGIN);
    }
  }
  return { chainChunkStart, chunkBox };
}

/**
 * Among `features` (ascending), the one with the nearest edge within `km` of the point, with its
 * distance; a tie keeps the lower id. Brute force over the features' chains, skipping the chains
 * whose box lies farther than `km` and the chunks of edges whose box lies farther than the best
 * distance so far (neither can hold a nearer edge, so the answer is the full scan's).
 */
export function nearestAmong(layer: LayerAccess, features: Iterable<number>, px: number, py: number, km: number): { feature: number; km: number } | undefined {
  const dLat = km / KM_PER_DEGREE;
  const dLon = dLat / Math.max(1e-6, Math.cos((Math.min(89.99, Math.abs(py) + dLat) * Math.PI) / 180));
  const kx = Math.cos((py * Math.PI) / 180) * KM_PER_DEGREE;
  const b = layer.featureBox;
  let best: number | undefined;
  let bestD = km;
  for (const f of features) {
    if (px < b[4 * f]! - dLon || px > b[4 * f + 2]! + dLon || py < b[4 * f + 1]! - dLat || py > b[4 * f + 3]! + dLat) continue;
    const c0 = layer.featureChainStart[f]!;
    const c1 = layer.featureChainStart[f + 1]!;
    const starts = layer.chainStarts(c0, c1);
    const cb = layer.chainBoxes(c0, c1);
    const chunks = layer.chainChunks(c0, c1);
    for (let c = 0; c < c1 - c0; c++) {
      if (px < cb[4 * c]! - dLon || px > cb[4 * c + 2]! + dLon || py < cb[4 * c + 1]! - dLat || py > cb[4 * c + 3]! + dLat) continue;
      const j0 = chunks[c]!;
      const boxes = layer.chunkBoxes(j0, chunks[c + 1]!);
      const last = starts[c + 1]! - 1;
      for (let j = 0; j < boxes.length / 4; j++) {
        const gx = Math.max(0, boxes[4 * j]! - px, px - boxes[4 * j + 2]!) * kx;
        const gy = Math.max(0, boxes[4 * j + 1]! - py, py - boxes[4 * j + 3]!) * KM_PER_DEGREE;
        if (Math.sqrt(gx * gx + gy * gy) > bestD) continue;
        const from = starts[c]! + CHAIN_CHUNK_EDGES * j;
        const count = Math.min(CHAIN_CHUNK_EDGES, last - from);
        const d = edgesDistanceKm(layer.vertices(from, from + count + 1), 0, count, px, py);
        if (d < bestD || (d === bestD && best === undefined)) {
          bestD = d;
          best = f;
        }
      }
    }
  }
  return best === undefined ? undefined : { feature: best, km: bestD };
}

function* allFeatures(layer: LayerAccess): Generator<number> {
  for (let f = 0; f < featureCount(layer); f++) yield f;
}

/** The feature with the nearest edge within `km` of the point (lowest id on a tie), brute force. */
export function nearestFeatureWithin(layer: LayerAccess, px: number, py: number, km: number): number | undefined {
  return nearestAmong(layer, allFeatures(layer), px, py, km)?.feature;
}
