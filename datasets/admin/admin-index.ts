/**
 * The reverse-geocoding index: for a point, the admin-1 feature and the timezone feature that
 * contain it, exactly as a point-in-polygon test on the source polygons would answer.
 *
 * A point's H3 slot (slot-grid.ts) holds either a single answer (no border within the slot's
 * box) or a boundary record: a reference point whose containing features are known, and for each
 * nearby feature the runs of its edges that enter the slot's box. The point is inside a feature
 * iff the reference is, toggled once per crossing of the segment point→reference with the
 * feature's edges; that segment never leaves the box, so no other edge can cross it.
 * Layout of the bytes: FORMAT.md.
 */
import { chainBoxes, chainBoxesWork, featureCount, writeVertexBox, edgesDistanceKm, featuresContaining, KM_PER_DEGREE, nearestFeatureWithin, segmentParity, type PolygonLayer } from "./polygon-layer.ts";
import { SlotGrid, type SlotGridLayout } from "./slot-grid.ts";
import { oceanZone } from "./ocean-zones.ts";
import { finishNow, type Work } from "../common/work.ts";

/**
 * A point in no admin-1 polygon but within this many km of one belongs to the nearest: the
 * territorial sea, 12 nautical miles (UNCLOS art. 3; 1 nautical mile = 1,852 m) off the coast,
 * which also absorbs Natural Earth's generalized 1:10m coastlines (Cairns, Dorval and Palm
 * Jumeirah lie more than 2 km outside them). Boundary records list the admin edges within this
 * distance of their box, so the search never leaves the record.
 */
export const COAST_TOLERANCE_KM = 12 * 1.852;

/** Slot words: an answer index, a boundary record (high bit set), or this marker for "test exactly". */
export const SLOT_FALLBACK = 0xffffffff;
export const SLOT_BOUNDARY_BIT = 0x80000000;
/** "No feature": at sea for the admin layer, the ocean band for the timezone layer. */
export const NO_FEATURE = 0xffffffff;
/** In a candidate word: the reference point is inside this feature. */
export const REF_INSIDE_BIT = 0x80000000;

/** Per layer, for each boundary record: candidate features and their edge runs. */
export interface LayerCandidates {
  /** Record b's candidates are candOffset[b] .. candOffset[b+1]-1 (length records + 1). */
  candOffset: Uint32Array;
  /** Feature id, with REF_INSIDE_BIT when the reference point is inside it; sorted by feature id. */
  candFeature: Uint32Array;
  /** Candidate c's runs are candRunOffset[c] .. candRunOffset[c+1]-1. */
  candRunOffset: Uint32Array;
  /** First vertex of a run of consecutive edges (edge v runs from vertex v to v+1). */
  runStart: Uint32Array;
  /** Number of edges in the run. */
  runCount: Uint32Array;
}

export interface AdminAttributes {
  /** Per admin feature: ISO 3166-1 alpha-2 country ("" when unresolved). */
  iso2: string[];
  /** Per admin feature: GeoNames admin-1 code "CC.code" ("" when unresolved). */
  admin1: string[];
  /** Per admin feature: Natural Earth name (for reports and debugging). */
  name: string[];
  /** Per timezone feature: IANA tzid. */
  tzid: string[];
  /**
   * Per timezone feature: ISO2 of the zone's country (the country most GeoNames places of the zone
   * are in; "" for none, e.g. Etc/ ocean zones): islands Natural Earth leaves out (Lý Sơn, 28 km off
   * Vietnam) lie in their zone's polygon, which reaches 12 nautical miles off OpenStreetMap's coast.
   */
  tzCountry: string[];
  /** The admin-1 codes the refinement places refer to. */
  refineCodes: string[];
}

/**
 * Admin features split by nearest GeoNames place (pipeline/admin/crosswalk.ts): feature f's
 * places are featureStart[f] .. featureStart[f+1]-1; none for an unsplit feature.
 */
export interface AdminRefinement {
  featureStart: Uint32Array;
  lat: Float64Array;
  lon: Float64Array;
  /** Index into attributes.refineCodes. */
  code: Uint32Array;
}

export interface AdminIndexData {
  layout: SlotGridLayout;
  /** One word per slot. */
  slotWord: Uint32Array;
  /** Pairs (admin feature, timezone feature) of single-answer slots; NO_FEATURE for none. */
  answers: Uint32Array;
  /** Per boundary record: reference lon, lat, then the box min lon, min lat, max lon, max lat. */
  boundaryGeom: Float64Array;
  admin: PolygonLayer;
  tz: PolygonLayer;
  adminCandidates: LayerCandidates;
  tzCandidates: LayerCandidates;
  refinement: AdminRefinement;
  attributes: AdminAttributes;
}

/** What the index says of a point. */
export interface ReverseAnswer {
  /** Admin feature id, or undefined at sea. */
  adminFeature: number | undefined;
  iso2: string | undefined;
  /** GeoNames admin-1 code, e.g. "FR.11". */
  admin1: string | undefined;
  timezone: string;
  /** True when no admin-1 area (so no country) contains the point: sea, or a lake-free gap. */
  atSea: boolean;
}

/**
 * The runs of a layer's candidates cut at load time into chunks of at most CHUNK_EDGES edges, each
 * with a box (float32, widened by CHUNK_MARGIN so that rounding never shrinks it). A chunk whose
 * box misses the box of the segment point→reference cannot cross it, and a chunk farther than
 * the best distance cannot be nearer: both are skipped without changing any answer. This keeps
 * cells with thousands of edges (OpenStreetMap borders in the Alps) to tens of microseconds.
 */
interface RunChunks {
  /** Candidate c's chunks are offset[c] .. offset[c+1]-1. */
  offset: Uint32Array;
  /**
   * Candidate c's chunks offset[c] .. innerEnd[c]-1 meet its record's box; the rest lie only in the
   * box widened by the coast tolerance: the nearest-edge search needs them, the parity test never
   * (the segment point→reference stays in the record's box).
   */
  innerEnd: Uint32Array;
  start: Uint32Array;
  count: Uint8Array;
  box: Float32Array;
}

const CHUNK_EDGES = 32;
/** Degrees added around a chunk's box: more than float32's rounding at 180° (1.5e-5°). */
const CHUNK_MARGIN = 1e-4;

function* chunkRuns(layer: PolygonLayer, L: LayerCandidates, recordGeom: Float64Array): Work<RunChunks> {
  const nc = L.candFeature.length;
  let chunks = 0;
  for (let r = 0; r < L.runCount.length; r++) chunks += Math.ceil(L.runCount[r]! / CHUNK_EDGES);
  const offset = new Uint32Array(nc + 1);
  const innerEnd = new Uint32Array(nc);
  const start = new Uint32Array(chunks);
  const count = new Uint8Array(chunks);
  const box = new Float32Array(4 * chunks);
  const scratch = new Float32Array(4);
  const outer: number[] = [];
  let k = 0;
  const records = L.candOffset.length - 1;
  for (let b = 0; b < records; b++) {
    if ((b & 31) === 31) yield;
    const o = 6 * b;
    const x0 = recordGeom[o + 2]!;
    const y0 = recordGeom[o + 3]!;
    const x1 = recordGeom[o + 4]!;
    const y1 = recordGeom[o + 5]!;
    for (let c = L.candOffset[b]!; c < L.candOffset[b + 1]!; c++) {
      offset[c] = k;
      outer.length = 0;
      for (let r = L.candRunOffset[c]!; r < L.candRunOffset[c + 1]!; r++) {
        const end = L.runStart[r]! + L.runCount[r]!;
        for (let from = L.runStart[r]!; from < end; from += CHUNK_EDGES) {
          const n = Math.min(CHUNK_EDGES, end - from);
          // A run of n edges has n + 1 vertices.
          writeVertexBox(layer, from, from + n + 1, scratch, 0, CHUNK_MARGIN);
          if (scratch[0]! > x1 || scratch[2]! < x0 || scratch[1]! > y1 || scratch[3]! < y0) {
            outer.push(from, n, scratch[0]!, scratch[1]!, scratch[2]!, scratch[3]!);
            continue;
          }
          start[k] = from;
          count[k] = n;
          box.set(scratch, 4 * k);
          k++;
        }
      }
      innerEnd[c] = k;
      for (let i = 0; i < outer.length; i += 6) {
        start[k] = outer[i]!;
        count[k] = outer[i + 1]!;
        box[4 * k] = outer[i + 2]!;
        box[4 * k + 1] = outer[i + 3]!;
        box[4 * k + 2] = outer[i + 4]!;
        box[4 * k + 3] = outer[i + 5]!;
        k++;
      }
    }
  }
  offset[nc] = k;
  return { offset, innerEnd, start, count, box };
}

/** The candidate of record b with the nearest edge within the coast tolerance, or NO_FEATURE. */
function nearestInRecord(layer: PolygonLayer, L: LayerCandidates, ch: RunChunks, b: number, qx: number, qy: number): number {
  let best = NO_FEATURE;
  let bestD = COAST_TOLERANCE_KM;
  const kx = Math.cos((qy * Math.PI) / 180) * KM_PER_DEGREE;
  for (let c = L.candOffset[b]!; c < L.candOffset[b + 1]!; c++) {
    for (let k = ch.offset[c]!; k < ch.offset[c + 1]!; k++) {
      const o = 4 * k;
      const gx = Math.max(0, ch.box[o]! - qx, qx - ch.box[o + 2]!) * kx;
      const gy = Math.max(0, ch.box[o + 1]! - qy, qy - ch.box[o + 3]!) * KM_PER_DEGREE;
      if (Math.sqrt(gx * gx + gy * gy) > bestD) continue;
      const d = edgesDistanceKm(layer.xs, layer.ys, ch.start[k]!, ch.count[k]!, qx, qy);
      // Candidates come in ascending feature order: a tie keeps the lower id.
      if (d < bestD || (d === bestD && best === NO_FEATURE)) {
        bestD = d;
        best = (L.candFeature[c]! & 0x7fffffff) >>> 0;
      }
    }
  }
  return best;
}

function layerAnswer(layer: PolygonLayer, L: LayerCandidates, ch: RunChunks, b: number, qx: number, qy: number, rx: number, ry: number): number {
  const xs = layer.xs;
  const ys = layer.ys;
  const loX = Math.min(qx, rx);
  const hiX = Math.max(qx, rx);
  const loY = Math.min(qy, ry);
  const hiY = Math.max(qy, ry);
  const box = ch.box;
  for (let c = L.candOffset[b]!; c < L.candOffset[b + 1]!; c++) {
    const word = L.candFeature[c]!;
    let inside = word >>> 31;
    for (let k = ch.offset[c]!; k < ch.innerEnd[c]!; k++) {
      const o = 4 * k;
      if (box[o]! > hiX || box[o + 2]! < loX || box[o + 1]! > hiY || box[o + 3]! < loY) continue;
      inside ^= segmentParity(xs, ys, ch.start[k]!, ch.count[k]!, qx, qy, rx, ry);
    }
    if (inside === 1) return (word & 0x7fffffff) >>> 0;
  }
  return NO_FEATURE;
}

/** The feature among `features` with the nearest edge to the point (brute force, rare points). */
function nearestAmong(layer: PolygonLayer, features: readonly number[], px: number, py: number): number {
  const cb = chainBoxes(layer);
  const b = layer.featureBox;
  let best = NO_FEATURE;
  // Widening searches: most such points are a few tens of km from their country's areas.
  for (const km of [100, 1000, Infinity]) {
    let bestD = km;
    const dLat = km / KM_PER_DEGREE;
    const dLon = dLat / Math.max(1e-6, Math.cos((Math.min(89.99, Math.abs(py) + dLat) * Math.PI) / 180));
    for (const f of features) {
      if (px < b[4 * f]! - dLon || px > b[4 * f + 2]! + dLon || py < b[4 * f + 1]! - dLat || py > b[4 * f + 3]! + dLat) continue;
      for (let c = layer.featureChainStart[f]!; c < layer.featureChainStart[f + 1]!; c++) {
        if (px < cb[4 * c]! - dLon || px > cb[4 * c + 2]! + dLon || py < cb[4 * c + 1]! - dLat || py > cb[4 * c + 3]! + dLat) continue;
        const from = layer.chainStart[c]!;
        const d = edgesDistanceKm(layer.xs, layer.ys, from, layer.chainStart[c + 1]! - from - 1, px, py);
        // Features come in ascending order: a tie keeps the lower id.
        if (d < bestD) {
          bestD = d;
          best = f;
        }
      }
    }
    if (best !== NO_FEATURE) return best;
  }
  return best;
}

/** What an index computes from its sections when it is opened. */
export interface AdminDerived {
  adminChunks: RunChunks;
  tzChunks: RunChunks;
}

function* deriveWork(data: AdminIndexData): Work<AdminDerived> {
  const adminChunks = yield* chunkRuns(data.admin, data.adminCandidates, data.boundaryGeom);
  const tzChunks = yield* chunkRuns(data.tz, data.tzCandidates, data.boundaryGeom);
  // Chain boxes for the exact fallback, computed now rather than on the first polar request.
  yield* chainBoxesWork(data.admin);
  yield* chainBoxesWork(data.tz);
  return { adminChunks, tzChunks };
}

export class AdminIndex {
  /** The index as work that yields between records (datasets/common/work.ts): what a server runs in slices. */
  static *build(data: AdminIndexData): Work<AdminIndex> {
    return new AdminIndex(data, yield* deriveWork(data));
  }

  readonly grid: SlotGrid;
  /** Scratch result of `lookupIds`: [admin feature, timezone feature] (NO_FEATURE for none). */
  readonly ids = new Uint32Array(2);

  private readonly adminChunks: RunChunks;
  private readonly tzChunks: RunChunks;
  /** Admin features per country, for points in a country's timezone polygon beyond the coast tolerance. */
  private readonly featuresOfCountry = new Map<string, number[]>();

  /** What lookups need beyond the file's sections, computed from them (see `build` for a server). */
  constructor(readonly data: AdminIndexData, derived: AdminDerived = finishNow(deriveWork(data))) {
    this.grid = new SlotGrid(data.layout);
    this.adminChunks = derived.adminChunks;
    this.tzChunks = derived.tzChunks;
    for (let f = 0; f < featureCount(data.admin); f++) {
      const cc = data.attributes.iso2[f];
      if (!cc) continue;
      const list = this.featuresOfCountry.get(cc) ?? [];
      list.push(f);
      this.featuresOfCountry.set(cc, list);
    }
  }

  /**
   * A point in no admin area and farther than the coast tolerance from any, but inside a country's
   * timezone polygon (its territorial waters around land Natural Earth leaves out): that
   * country's nearest area.
   */
  private offshore(lat: number, lon: number): void {
    if (this.ids[0] !== NO_FEATURE || this.ids[1] === NO_FEATURE) return;
    const cc = this.data.attributes.tzCountry[this.ids[1]!];
    const features = cc ? this.featuresOfCountry.get(cc) : undefined;
    if (features) this.ids[0] = nearestAmong(this.data.admin, features, lon, lat);
  }

  /** Sets `ids` to the admin and timezone features containing the point (degrees). */
  lookupIds(lat: number, lon: number): void {
    const d = this.data;
    const slot = this.grid.slotOf(lat, lon);
    const word = slot < 0 ? SLOT_FALLBACK : d.slotWord[slot]!;
    if (word < SLOT_BOUNDARY_BIT) {
      this.ids[0] = d.answers[2 * word]!;
      this.ids[1] = d.answers[2 * word + 1]!;
      this.offshore(lat, lon);
      return;
    }
    if (word !== SLOT_FALLBACK) {
      const b = word & 0x7fffffff;
      const g = d.boundaryGeom;
      const o = 6 * b;
      if (lon >= g[o + 2]! && lat >= g[o + 3]! && lon <= g[o + 4]! && lat <= g[o + 5]!) {
        const rx = g[o]!;
        const ry = g[o + 1]!;
        const a = layerAnswer(d.admin, d.adminCandidates, this.adminChunks, b, lon, lat, rx, ry);
        this.ids[0] = a !== NO_FEATURE ? a : nearestInRecord(d.admin, d.adminCandidates, this.adminChunks, b, lon, lat);
        this.ids[1] = layerAnswer(d.tz, d.tzCandidates, this.tzChunks, b, lon, lat, rx, ry);
        this.offshore(lat, lon);
        return;
      }
    }
    this.lookupExact(lat, lon);
  }

  /**
   * Brute force over every feature (poles, antimeridian, and the build's validation): the first
   * admin feature containing the point, else the nearest within the coast tolerance, else (in a
   * country's timezone polygon) that country's nearest; the first timezone feature containing it.
   */
  lookupExact(lat: number, lon: number): void {
    const a = featuresContaining(this.data.admin, lon, lat);
    const t = featuresContaining(this.data.tz, lon, lat);
    this.ids[0] = a.length > 0 ? a[0]! : (nearestFeatureWithin(this.data.admin, lon, lat, COAST_TOLERANCE_KM) ?? NO_FEATURE);
    this.ids[1] = t.length > 0 ? t[0]! : NO_FEATURE;
    this.offshore(lat, lon);
  }

  /** Timezone id of a timezone feature, or the ocean zone of the longitude. */
  timezoneOf(tzFeature: number, lon: number): string {
    return tzFeature === NO_FEATURE ? oceanZone(lon) : this.data.attributes.tzid[tzFeature]!;
  }

  lookup(lat: number, lon: number): ReverseAnswer {
    this.lookupIds(lat, lon);
    return this.describe(this.ids[0]!, this.ids[1]!, lat, lon);
  }

  /** GeoNames admin-1 code of a point in an admin feature: the feature's, or its nearest place's. */
  admin1Of(adminFeature: number, lat: number, lon: number): string | undefined {
    const r = this.data.refinement;
    const from = r.featureStart[adminFeature]!;
    const to = r.featureStart[adminFeature + 1]!;
    if (from === to) return this.data.attributes.admin1[adminFeature] || undefined;
    const k = Math.cos((lat * Math.PI) / 180);
    let best = from;
    let bestD = Infinity;
    for (let p = from; p < to; p++) {
      const dx = (r.lon[p]! - lon) * k;
      const dy = r.lat[p]! - lat;
      const d = dx * dx + dy * dy;
      if (d < bestD) {
        bestD = d;
        best = p;
      }
    }
    return this.data.attributes.refineCodes[r.code[best]!];
  }

  describe(adminFeature: number, tzFeature: number, lat: number, lon: number): ReverseAnswer {
    const attrs = this.data.attributes;
    const hasAdmin = adminFeature !== NO_FEATURE;
    return {
      adminFeature: hasAdmin ? adminFeature : undefined,
      iso2: hasAdmin ? attrs.iso2[adminFeature] || undefined : undefined,
      admin1: hasAdmin ? this.admin1Of(adminFeature, lat, lon) : undefined,
      timezone: this.timezoneOf(tzFeature, lon),
      atSea: !hasAdmin,
    };
  }
}
