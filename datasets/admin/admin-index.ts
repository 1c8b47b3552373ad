/**
 * The reverse-geocoding index, read where it lies: for a point, the admin-1 feature and the
 * timezone feature that contain it, exactly as a point-in-polygon test on the source polygons
 * would answer.
 *
 * A point's H3 slot (slot-grid.ts) holds either a single answer (no border within the slot's
 * box) or a boundary record (boundary-record.ts): a reference point whose containing features
 * are known, and for each nearby feature the chunks of its edges that enter the slot's box. The
 * point is inside a feature iff the reference is, toggled once per crossing of the segment
 * point→reference with the feature's edges; that segment never leaves the box, so no other edge
 * can cross it. A lookup reads the slot's entry, then its record, then the vertices of the
 * chunks the segment's box meets (one read each); the small tables (grid rows, answers,
 * attributes, feature boxes, refinement places) are read once when the index is opened.
 * Layout of the bytes: FORMAT.md.
 */
import type { ByteSource } from "../common/byte-source.ts";
import { DataFormatError } from "../common/errors.ts";
import { BoundaryRecord } from "./boundary-record.ts";
import { COAST_TOLERANCE_KM, exactFeatures, exactTimezone, NO_FEATURE, offshoreAdmin, type FeaturePair } from "./exact.ts";
import { oceanZone } from "./ocean-zones.ts";
import type { FileLayer } from "./file-layer.ts";
import { edgesDistanceKm, featureCount, KM_PER_DEGREE, segmentParity } from "./polygon-layer.ts";
import { readAligned, u32s } from "./sections.ts";
import { SlotGrid, type SlotGridLayout } from "./slot-grid.ts";

/** Slot entries: an answer index, a record (high bit set, then its offset / 8), or this marker for "test exactly". */
export const SLOT_FALLBACK = 0xffffffff;
export const SLOT_BOUNDARY_BIT = 0x80000000;

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

/** What opening found: the parts of the file a lookup keeps at hand. */
export interface AdminIndexParts {
  source: ByteSource;
  file: string;
  layout: SlotGridLayout;
  /** Payload offset of the slot entries (2 u32 per slot) and of the records. */
  slotsAt: number;
  recordsAt: number;
  recordsBytes: number;
  worldMapAt: number;
  worldMapBytes: number;
  answers: Uint32Array;
  admin: FileLayer;
  tz: FileLayer;
  refinement: AdminRefinement;
  attributes: AdminAttributes;
}

export class AdminIndex {
  readonly grid: SlotGrid;
  readonly attributes: AdminAttributes;
  readonly admin: FileLayer;
  readonly tz: FileLayer;
  private readonly source: ByteSource;
  private readonly file: string;

  constructor(private readonly parts: AdminIndexParts) {
    this.grid = new SlotGrid(parts.layout);
    this.attributes = parts.attributes;
    this.admin = parts.admin;
    this.tz = parts.tz;
    this.source = parts.source;
    this.file = parts.file;
  }

  get res(): number {
    return this.parts.layout.res;
  }

  /** The slot's entry: [word, record bytes]. */
  private slotEntry(slot: number): { word: number; bytes: number } {
    const b = readAligned(this.source, this.parts.slotsAt + 8 * slot, 8, this.file, "slots");
    const w = u32s(b);
    return { word: w[0]!, bytes: w[1]! };
  }

  /** The kind of a slot (for benches and tests): "single", "boundary" or "fallback". */
  slotKind(lat: number, lon: number): "single" | "boundary" | "fallback" {
    const slot = this.grid.slotOf(lat, lon);
    const word = slot < 0 ? SLOT_FALLBACK : this.slotEntry(slot).word;
    return word < SLOT_BOUNDARY_BIT ? "single" : word === SLOT_FALLBACK ? "fallback" : "boundary";
  }

  private answer(word: number, slot: number): FeaturePair {
    const a = this.parts.answers;
    if (2 * word + 1 >= a.length) throw new DataFormatError({ file: this.file, field: `slots (slot ${slot})` }, `an answer below ${a.length / 2}`, String(word));
    return { admin: a[2 * word]!, tz: a[2 * word + 1]! };
  }

  private record(slot: number, word: number, bytes: number): BoundaryRecord {
    const at = (word & 0x7fffffff) * 8;
    if (at + bytes > this.parts.recordsBytes) {
      throw new DataFormatError({ file: this.file, field: `slots (slot ${slot})` }, `a record within ${this.parts.recordsBytes} bytes`, `offset ${at}, ${bytes} bytes`);
    }
    return new BoundaryRecord(readAligned(this.source, this.parts.recordsAt + at, bytes, this.file, "records"), this.file, slot);
  }

  /** The record of the point's slot when the point lies in its box, else undefined (exact search). */
  private slot(lat: number, lon: number): { pair: FeaturePair } | { record: BoundaryRecord } | undefined {
    const slot = this.grid.slotOf(lat, lon);
    if (slot < 0) return undefined;
    const { word, bytes } = this.slotEntry(slot);
    if (word < SLOT_BOUNDARY_BIT) return { pair: this.answer(word, slot) };
    if (word === SLOT_FALLBACK) return undefined;
    const record = this.record(slot, word, bytes);
    const g = record.geom;
    // A point outside the box (which the construction prevents) falls back to brute force.
    return lon >= g[2]! && lat >= g[3]! && lon <= g[4]! && lat <= g[5]! ? { record } : undefined;
  }

  /** The admin and timezone features containing the point (degrees); NO_FEATURE for none. */
  features(lat: number, lon: number): FeaturePair {
    const found = this.slot(lat, lon);
    if (found === undefined) return exactFeatures(this.admin, this.tz, this.attributes, lat, lon);
    let pair: FeaturePair;
    if ("pair" in found) pair = { ...found.pair };
    else {
      const r = found.record;
      const a = this.layerAnswer(r, this.admin, lon, lat);
      pair = { admin: a !== NO_FEATURE ? a : this.nearestInRecord(r, lon, lat), tz: this.layerAnswer(r, this.tz, lon, lat) };
    }
    pair.admin = offshoreAdmin(this.admin, this.attributes, pair, lat, lon);
    return pair;
  }

  /** The timezone feature containing the point: the timezone half of `features`, nothing more. */
  timezoneFeature(lat: number, lon: number): number {
    const found = this.slot(lat, lon);
    if (found === undefined) return exactTimezone(this.tz, lat, lon);
    return "pair" in found ? found.pair.tz : this.layerAnswer(found.record, this.tz, lon, lat);
  }

  /** IANA id of the point's timezone: its zone polygon's, else the ocean zone of the longitude. */
  timezoneAt(lat: number, lon: number): string {
    return this.timezoneOf(this.timezoneFeature(lat, lon), lon);
  }

  /** The first candidate of the layer whose parity says it contains q, or NO_FEATURE. */
  private layerAnswer(r: BoundaryRecord, layer: FileLayer, qx: number, qy: number): number {
    const rx = r.geom[0]!;
    const ry = r.geom[1]!;
    const loX = Math.min(qx, rx);
    const hiX = Math.max(qx, rx);
    const loY = Math.min(qy, ry);
    const hiY = Math.max(qy, ry);
    const { u32, f32 } = r;
    const which = layer.name;
    const first = r.first(which);
    for (let i = first; i < first + r.count(which); i++) {
      const word = r.word(i);
      let inside = word >>> 31;
      for (let k = r.firstChunk(i); k < r.innerEnd(i); k++) {
        const w = r.chunkWord(k);
        if (f32[w + 2]! > hiX || f32[w + 4]! < loX || f32[w + 3]! > hiY || f32[w + 5]! < loY) continue;
        const start = u32[w]!;
        const count = u32[w + 1]!;
        inside ^= segmentParity(layer.vertices(start, start + count + 1), 0, count, qx, qy, rx, ry);
      }
      if (inside === 1) return this.feature(layer, word);
    }
    return NO_FEATURE;
  }

  private feature(layer: FileLayer, word: number): number {
    const f = (word & 0x7fffffff) >>> 0;
    if (f >= featureCount(layer)) throw new DataFormatError({ file: this.file, field: `records (${layer.name} candidates)` }, `features below ${featureCount(layer)}`, String(f));
    return f;
  }

  /** The admin candidate of the record with the nearest edge within the coast tolerance, or NO_FEATURE. */
  private nearestInRecord(r: BoundaryRecord, qx: number, qy: number): number {
    let best = NO_FEATURE;
    let bestD = COAST_TOLERANCE_KM;
    const kx = Math.cos((qy * Math.PI) / 180) * KM_PER_DEGREE;
    const { u32, f32 } = r;
    for (let i = 0; i < r.adminCount; i++) {
      for (let k = r.firstChunk(i); k < r.chunkEnd(i); k++) {
        const w = r.chunkWord(k);
        const gx = Math.max(0, f32[w + 2]! - qx, qx - f32[w + 4]!) * kx;
        const gy = Math.max(0, f32[w + 3]! - qy, qy - f32[w + 5]!) * KM_PER_DEGREE;
        if (Math.sqrt(gx * gx + gy * gy) > bestD) continue;
        const start = u32[w]!;
        const count = u32[w + 1]!;
        const d = edgesDistanceKm(this.admin.vertices(start, start + count + 1), 0, count, qx, qy);
        // Candidates come in ascending feature order: a tie keeps the lower id.
        if (d < bestD || (d === bestD && best === NO_FEATURE)) {
          bestD = d;
          best = this.feature(this.admin, r.word(i));
        }
      }
    }
    return best;
  }

  /** Timezone id of a timezone feature, or the ocean zone of the longitude. */
  timezoneOf(tzFeature: number, lon: number): string {
    return tzFeature === NO_FEATURE ? oceanZone(lon) : this.attributes.tzid[tzFeature]!;
  }

  lookup(lat: number, lon: number): ReverseAnswer {
    const { admin, tz } = this.features(lat, lon);
    return this.describe(admin, tz, lat, lon);
  }

  /** GeoNames admin-1 code of a point in an admin feature: the feature's, or its nearest place's. */
  admin1Of(adminFeature: number, lat: number, lon: number): string | undefined {
    const r = this.parts.refinement;
    const from = r.featureStart[adminFeature]!;
    const to = r.featureStart[adminFeature + 1]!;
    if (from === to) return this.attributes.admin1[adminFeature] || undefined;
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
    return this.attributes.refineCodes[r.code[best]!];
  }

  describe(adminFeature: number, tzFeature: number, lat: number, lon: number): ReverseAnswer {
    const attrs = this.attributes;
    const hasAdmin = adminFeature !== NO_FEATURE;
    return {
      adminFeature: hasAdmin ? adminFeature : undefined,
      iso2: hasAdmin ? attrs.iso2[adminFeature] || undefined : undefined,
      admin1: hasAdmin ? this.admin1Of(adminFeature, lat, lon) : undefined,
      timezone: this.timezoneOf(tzFeature, lon),
      atSea: !hasAdmin,
    };
  }

  /** Box of an admin feature: min lon, min lat, max lon, max lat. */
  adminFeatureBox(f: number): [number, number, number, number] {
    const b = this.admin.featureBox;
    return [b[4 * f]!, b[4 * f + 1]!, b[4 * f + 2]!, b[4 * f + 3]!];
  }

  /** The countries as simplified GeoJSON (UTF-8), built with the index (pipeline/admin/world-map.ts). */
  worldMapJson(): Uint8Array {
    return readAligned(this.source, this.parts.worldMapAt, this.parts.worldMapBytes, this.file, "worldMap");
  }

  /** Releases the file (a release switch drops the old index). */
  close(): void {
    this.source.close?.();
  }
}
