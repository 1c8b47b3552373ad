/**
 * Writes the places search index payload (FORMAT.md): `addPlace()` in rank order, `addKey()` in
 * ascending byte order of the folded keys, then `finish()` returns the payload chunks for the
 * artifact envelope. Places and keys are streamed in; only the compact columns are kept.
 */
import { DataFormatError } from "../common/errors.ts";
import { Growable } from "./growable.ts";
import { COORD_SCALE, NONE16, SECTION_COUNT, SECTION_TABLE_BYTES, Section, type PlacesTables } from "./index-format.ts";
import { deletionHashes, indexedDeletions, TYPO_PREFIX } from "./deletions.ts";
import { codePointLength } from "./fold.ts";

export interface PlaceRow {
  geonameId: number;
  name: string;
  /** Degrees. */
  lat: number;
  lon: number;
  population: number;
  /** Indexes into the tables, or -1 for none. */
  country: number;
  admin1: number;
  feature: number;
  timezone: number;
}

const encoder = new TextEncoder();
const MAX_U32 = 0xffffffff;

function u16(value: number): number {
  return value < 0 ? NONE16 : value;
}

export class PlacesIndexWriter {
  private readonly geonameId = new Growable(Uint32Array);
  private readonly latE7 = new Growable(Int32Array);
  private readonly lonE7 = new Growable(Int32Array);
  private readonly population = new Growable(Uint32Array);
  private readonly country = new Growable(Uint16Array);
  private readonly admin1 = new Growable(Uint16Array);
  private readonly feature = new Growable(Uint16Array);
  private readonly timezone = new Growable(Uint16Array);
  private readonly nameOffsets = new Growable(Uint32Array);
  private readonly nameBytes = new Growable(Uint8Array, 1 << 16);
  private readonly keyOffsets = new Growable(Uint32Array);
  private readonly keyBytes = new Growable(Uint8Array, 1 << 16);
  private readonly postingOffsets = new Growable(Uint32Array);
  private readonly postings = new Growable(Uint32Array);
  private readonly fuzzyKeys = new Growable(Uint32Array);
  private readonly fuzzyLengths = new Growable(Uint8Array);
  /** (deletion-variant hash, fuzzy ordinal) pairs, sorted in finish(). */
  private readonly pairHash = new Growable(Uint32Array);
  private readonly pairKey = new Growable(Uint32Array);
  private lastKey: Uint8Array | undefined;

  constructor(private readonly tables: PlacesTables) {
    this.nameOffsets.push(0);
    this.keyOffsets.push(0);
    this.postingOffsets.push(0);
  }

  get placeCount(): number {
    return this.geonameId.length;
  }

  get keyCount(): number {
    return this.keyOffsets.length - 1;
  }

  /** Adds the next place; places must come in rank order (best first). */
  addPlace(p: PlaceRow): void {
    this.geonameId.push(p.geonameId);
    this.latE7.push(Math.round(p.lat * COORD_SCALE));
    this.lonE7.push(Math.round(p.lon * COORD_SCALE));
    this.population.push(Math.min(MAX_U32, Math.max(0, Math.round(p.population))));
    this.country.push(u16(p.country));
    this.admin1.push(u16(p.admin1));
    this.feature.push(u16(p.feature));
    this.timezone.push(u16(p.timezone));
    this.nameBytes.pushBytes(encoder.encode(p.name));
    this.nameOffsets.push(this.nameBytes.length);
  }

  /**
   * Adds a folded key with its postings (`placeIndex * 2 + weak`, ascending by place). `fuzzy`
   * marks keys that take part in typo matching (primary names of 3+ code points).
   */
  addKey(key: string, postings: ArrayLike<number>, fuzzy: boolean): void {
    const bytes = encoder.encode(key);
    if (this.lastKey !== undefined && Buffer.compare(this.lastKey, bytes) >= 0) {
      throw new DataFormatError({ field: "names.key" }, "keys in strictly ascending byte order", `${JSON.stringify(key)} after a key not smaller`);
    }
    this.lastKey = bytes;
    const keyIndex = this.keyCount;
    this.keyBytes.pushBytes(bytes);
    this.keyOffsets.push(this.keyBytes.length);
    let previous = -1;
    for (let i = 0; i < postings.length; i++) {
      const posting = postings[i]!;
      if (posting >>> 1 <= previous) {
        throw new DataFormatError({ field: `postings of ${JSON.stringify(key)}` }, "place indexes in strictly ascending order", `${posting >>> 1} after ${previous}`);
      }
      previous = posting >>> 1;
      this.postings.push(posting);
    }
    this.postingOffsets.push(this.postings.length);
    if (fuzzy) {
      const ordinal = this.fuzzyKeys.length;
      this.fuzzyKeys.push(keyIndex);
      const length = codePointLength(key);
      this.fuzzyLengths.push(Math.min(255, length));
      const deletes = indexedDeletions(length);
      const hashes = deletionHashes(key, deletes, length, "prefix");
      if (length > TYPO_PREFIX) hashes.push(...deletionHashes(key, deletes, length, "suffix"));
      for (const h of hashes) {
        this.pairHash.push(h);
        this.pairKey.push(ordinal);
      }
    }
  }

  /** The payload chunks: section table first, then each section padded to 8 bytes. */
  finish(): Uint8Array[] {
    const { hashes, keys } = this.sortVariants();
    const n = this.placeCount;
    const idOrder = new Uint32Array(n);
    for (let i = 0; i < n; i++) idOrder[i] = i;
    const ids = this.geonameId.view();
    idOrder.sort((a, b) => ids[a]! - ids[b]!);
    for (let i = 1; i < n; i++) {
      if (ids[idOrder[i]!] === ids[idOrder[i - 1]!]) {
        throw new DataFormatError({ field: "geonameid" }, "unique GeoNames ids", `${ids[idOrder[i]!]} twice`);
      }
    }
    const sections: Uint8Array[] = [];
    sections[Section.tables] = encoder.encode(JSON.stringify(this.tables));
    sections[Section.geonameId] = bytesOf(ids);
    sections[Section.latE7] = bytesOf(this.latE7.view());
    sections[Section.lonE7] = bytesOf(this.lonE7.view());
    sections[Section.population] = bytesOf(this.population.view());
    sections[Section.country] = bytesOf(this.country.view());
    sections[Section.admin1] = bytesOf(this.admin1.view());
    sections[Section.feature] = bytesOf(this.feature.view());
    sections[Section.timezone] = bytesOf(this.timezone.view());
    sections[Section.nameOffsets] = bytesOf(this.nameOffsets.view());
    sections[Section.nameBytes] = this.nameBytes.view();
    sections[Section.idOrder] = bytesOf(idOrder);
    sections[Section.keyOffsets] = bytesOf(this.keyOffsets.view());
    sections[Section.keyBytes] = this.keyBytes.view();
    sections[Section.postingOffsets] = bytesOf(this.postingOffsets.view());
    sections[Section.postings] = bytesOf(this.postings.view());
    sections[Section.fuzzyKeys] = bytesOf(this.fuzzyKeys.view());
    sections[Section.fuzzyLengths] = this.fuzzyLengths.view();
    sections[Section.variantHashes] = bytesOf(hashes);
    sections[Section.variantPostings] = bytesOf(keys);

    const table = Buffer.alloc(SECTION_TABLE_BYTES);
    table.writeUInt32LE(SECTION_COUNT, 0);
    const chunks: Uint8Array[] = [table];
    let offset = SECTION_TABLE_BYTES;
    for (let s = 0; s < SECTION_COUNT; s++) {
      const bytes = sections[s]!;
      table.writeUInt32LE(offset, 4 + s * 8);
      table.writeUInt32LE(bytes.byteLength, 8 + s * 8);
      chunks.push(bytes);
      offset += bytes.byteLength;
      const pad = (8 - (offset % 8)) % 8;
      if (pad > 0) {
        chunks.push(new Uint8Array(pad));
        offset += pad;
      }
    }
    if (offset > MAX_U32) throw new RangeError(`places index of ${offset} bytes exceeds the 4 GiB the section table can address`);
    return chunks;
  }

  /** Sorts (hash, fuzzy ordinal) pairs by hash with a stable LSD radix sort (ordinals stay ascending). */
  private sortVariants(): { hashes: Uint32Array; keys: Uint32Array } {
    let h = this.pairHash.view();
    let k = this.pairKey.view();
    const m = h.length;
    for (let shift = 0; shift < 32; shift += 16) {
      const counts = new Uint32Array(65537);
      for (let i = 0; i < m; i++) counts[((h[i]! >>> shift) & 0xffff) + 1]!++;
      for (let d = 1; d <= 65536; d++) counts[d]! += counts[d - 1]!;
      const h2 = new Uint32Array(m);
      const k2 = new Uint32Array(m);
      for (let i = 0; i < m; i++) {
        const d = (h[i]! >>> shift) & 0xffff;
        const at = counts[d]!++;
        h2[at] = h[i]!;
        k2[at] = k[i]!;
      }
      h = h2;
      k = k2;
    }
    return { hashes: h, keys: k };
  }
}

function bytesOf(array: Uint16Array | Uint32Array | Int32Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}
