/**
 * Writes the places search index payload (FORMAT.md): `addPlace()` in rank order, `addKey()` in
 * ascending byte order of the folded keys, then `finish()` assembles the payload file. Streamed
 * sections go straight to temporary files in `workDir`; only the GeoNames ids (for the id order)
 * and the typo variant pairs (sorted at the end) stay in memory.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import { crc32 } from "node:zlib";
import { DataFormatError } from "../common/errors.ts";
import { deletionHashes, indexedDeletions, TYPO_PREFIX } from "./deletions.ts";
import { codePointLength } from "./fold.ts";
import { Growable } from "./growable.ts";
import { COORD_SCALE, NONE16, POSTING_SHIFT, SECTION_COUNT, SECTION_TABLE_BYTES, Section, type PlacesTables } from "./index-format.ts";
import { SectionSpool } from "./section-spool.ts";

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

/** The assembled payload: a file plus what the envelope needs to know about it. */
export interface WrittenPayload {
  file: string;
  bytes: number;
  crc32: number;
}

const encoder = new TextEncoder();
const MAX_U32 = 0xffffffff;

const STREAMED = [
  Section.geonameId, Section.latE7, Section.lonE7, Section.population, Section.country, Section.admin1,
  Section.feature, Section.timezone, Section.nameOffsets, Section.nameBytes, Section.keyOffsets, Section.keyBytes,
  Section.postingOffsets, Section.postings, Section.fuzzyKeys, Section.fuzzyLengths,
] as const;

function u16(value: number): number {
  return value < 0 ? NONE16 : value;
}

export class PlacesIndexWriter {
  private readonly spools = new Map<number, SectionSpool>();
  private readonly ids = new Growable(Uint32Array);
  /** (deletion-variant hash, fuzzy ordinal) pairs, sorted in finish(). */
  private readonly pairHash = new Growable(Uint32Array);
  private readonly pairKey = new Growable(Uint32Array);
  private lastKey: Uint8Array | undefined;
  private keys = 0;
  private fuzzy = 0;
  private postingCount = 0;

  constructor(
    private readonly tables: PlacesTables,
    workDir: string,
  ) {
    for (const s of STREAMED) this.spools.set(s, new SectionSpool(path.join(workDir, `section-${s}.bin`)));
    this.spool(Section.nameOffsets).u32(0);
    this.spool(Section.keyOffsets).u32(0);
    this.spool(Section.postingOffsets).u32(0);
  }

  private spool(s: number): SectionSpool {
    return this.spools.get(s)!;
  }

  get placeCount(): number {
    return this.ids.length;
  }

  get keyCount(): number {
    return this.keys;
  }

  /** Adds the next place; places must come in rank order (best first). */
  addPlace(p: PlaceRow): void {
    this.ids.push(p.geonameId);
    this.spool(Section.geonameId).u32(p.geonameId);
    this.spool(Section.latE7).i32(Math.round(p.lat * COORD_SCALE));
    this.spool(Section.lonE7).i32(Math.round(p.lon * COORD_SCALE));
    this.spool(Section.population).u32(Math.min(MAX_U32, Math.max(0, Math.round(p.population))));
    this.spool(Section.country).u16(u16(p.country));
    this.spool(Section.admin1).u16(u16(p.admin1));
    this.spool(Section.feature).u16(u16(p.feature));
    this.spool(Section.timezone).u16(u16(p.timezone));
    const names = this.spool(Section.nameBytes);
    names.bytes(encoder.encode(p.name));
    this.spool(Section.nameOffsets).u32(names.length);
  }

  /**
   * Adds a folded key with its postings (`placeIndex * 4 + primary * 2 + weak`, ascending by place). `fuzzy`
   * marks keys that take part in typo matching.
   */
  addKey(key: string, postings: ArrayLike<number>, fuzzy: boolean): void {
    const bytes = encoder.encode(key);
    if (this.lastKey !== undefined && Buffer.compare(this.lastKey, bytes) >= 0) {
      throw new DataFormatError({ field: "names.key" }, "keys in strictly ascending byte order", `${JSON.stringify(key)} after a key not smaller`);
    }
    this.lastKey = bytes;
    const keyIndex = this.keys++;
    const keyBytes = this.spool(Section.keyBytes);
    keyBytes.bytes(bytes);
    this.spool(Section.keyOffsets).u32(keyBytes.length);
    const out = this.spool(Section.postings);
    let previous = -1;
    for (let i = 0; i < postings.length; i++) {
      const posting = postings[i]!;
      if (posting >>> POSTING_SHIFT <= previous) {
        throw new DataFormatError({ field: `postings of ${JSON.stringify(key)}` }, "place indexes in strictly ascending order", `${posting >>> POSTING_SHIFT} after ${previous}`);
      }
      previous = posting >>> POSTING_SHIFT;
      out.u32(posting);
    }
    this.postingCount += postings.length;
    this.spool(Section.postingOffsets).u32(this.postingCount);
    if (fuzzy) {
      const ordinal = this.fuzzy++;
      this.spool(Section.fuzzyKeys).u32(keyIndex);
      const length = codePointLength(key);
      this.spool(Section.fuzzyLengths).u8(Math.min(255, length));
      const deletes = indexedDeletions(length);
      const hashes = deletionHashes(key, deletes, length, "prefix");
      if (length > TYPO_PREFIX) hashes.push(...deletionHashes(key, deletes, length, "suffix"));
      for (const h of hashes) {
        this.pairHash.push(h);
        this.pairKey.push(ordinal);
      }
    }
  }

  /** Writes the payload (section table, then each section padded to 8 bytes) to `file`. */
  finish(file: string): WrittenPayload {
    const inMemory = new Map<number, Uint8Array>();
    inMemory.set(Section.tables, encoder.encode(JSON.stringify(this.tables)));
    inMemory.set(Section.idOrder, bytesOf(this.idOrder()));
    const { hashes, keys } = this.sortVariants();
    // The top 16 bits of a hash are implied by its directory slot; only the low 16 are stored.
    const directory = new Uint32Array(65537);
    const low16 = new Uint16Array(hashes.length);
    let top = 0;
    for (let i = 0; i < hashes.length; i++) {
      const t = hashes[i]! >>> 16;
      while (top <= t) directory[top++] = i;
      low16[i] = hashes[i]! & 0xffff;
    }
    while (top <= 65536) directory[top++] = hashes.length;
    inMemory.set(Section.variantDirectory, bytesOf(directory));
    inMemory.set(Section.variantLow16, bytesOf(low16));
    inMemory.set(Section.variantPostings, bytesOf(keys));

    const lengthOf = (s: number): number => inMemory.get(s)?.byteLength ?? this.spool(s).length;
    const table = Buffer.alloc(SECTION_TABLE_BYTES);
    table.writeUInt32LE(SECTION_COUNT, 0);
    let offset = SECTION_TABLE_BYTES;
    for (let s = 0; s < SECTION_COUNT; s++) {
      const length = lengthOf(s);
      table.writeUInt32LE(offset, 4 + s * 8);
      table.writeUInt32LE(length, 8 + s * 8);
      offset += length + ((8 - (length % 8)) % 8);
    }
    if (offset > MAX_U32) throw new RangeError(`places index of ${offset} bytes exceeds the 4 GiB the section table can address`);

    const fd = openSync(file, "w");
    let crc = 0;
    let bytes = 0;
    const write = (chunk: Uint8Array): void => {
      writeSync(fd, chunk);
      crc = crc32(chunk, crc);
      bytes += chunk.byteLength;
    };
    try {
      write(table);
      for (let s = 0; s < SECTION_COUNT; s++) {
        const data = inMemory.get(s);
        if (data) write(data);
        else this.spool(s).forEachChunk(write);
        const pad = (8 - (lengthOf(s) % 8)) % 8;
        if (pad > 0) write(new Uint8Array(pad));
      }
    } finally {
      closeSync(fd);
      for (const spool of this.spools.values()) spool.close();
    }
    return { file, bytes, crc32: crc >>> 0 };
  }

  /** Place indexes sorted by GeoNames id; duplicate ids are refused. */
  private idOrder(): Uint32Array {
    const ids = this.ids.view();
    const order = new Uint32Array(ids.length);
    for (let i = 0; i < order.length; i++) order[i] = i;
    const { keys } = radixSortPairs(ids, order);
    for (let i = 1; i < keys.length; i++) {
      if (ids[keys[i]!] === ids[keys[i - 1]!]) throw new DataFormatError({ field: "geonameid" }, "unique GeoNames ids", `${ids[keys[i]!]} twice`);
    }
    return keys;
  }

  /** Sorts (hash, fuzzy ordinal) pairs by hash; ordinals stay ascending within a hash. */
  private sortVariants(): { hashes: Uint32Array; keys: Uint32Array } {
    return radixSortPairs(this.pairHash.view(), this.pairKey.view());
  }
}

/** Stable LSD radix sort of (uint32 sort key, uint32 value) pairs by key, two 16-bit passes. */
function radixSortPairs(sortKeys: Uint32Array, values: Uint32Array): { hashes: Uint32Array; keys: Uint32Array } {
  let h = sortKeys;
  let k = values;
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

function bytesOf(array: Uint16Array | Uint32Array | Int32Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}
