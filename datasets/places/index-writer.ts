/**
 * Writes the places search index payload (FORMAT.md): `addPlace()` in rank order, `addKey()` in
 * ascending byte order of the folded keys, then `finish()` assembles the payload file. Everything
 * the server needs is computed here, in the form it reads it: postings carry the ranking data of
 * their place, key blocks carry their posting ranges, the typo variants are sorted by hash with a
 * directory. Streamed sections go straight to temporary files in `workDir`; per-place ranking
 * data, the GeoNames ids and the typo variants stay in memory.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import { crc32 } from "node:zlib";
import { DataFormatError } from "../common/errors.ts";
import { indexedDeletions, rawVariantHashes, TYPO_PREFIX, lengthTag } from "./deletions.ts";
import { codePointLength, foldKeepingApostrophes, foldName } from "./fold.ts";
import { Growable } from "./growable.ts";
import { featureMalus, populationScore } from "./importance.ts";
import {
  APOSTROPHE_FLAG, COORD_SCALE, IDS_PER_BLOCK, NAME_INLINE, NONE16, POSTING_SHIFT, SECTION_COUNT,
  SECTION_TABLE_BYTES, Section, TYPO_KEY_FLAG, VARIANT_BYTES, type PlacesAreas, type PlacesTables,
} from "./index-format.ts";
import { KeyTableWriter } from "./key-table.ts";
import { SectionSpool } from "./section-spool.ts";
import { ENTRIES_PER_BLOCK, groupOf } from "./variants.ts";

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

const STREAMED = [Section.places, Section.names, Section.keyBlocks, Section.postings, Section.typoKeys] as const;

function u16(value: number): number {
  return value < 0 ? NONE16 : value;
}

/** A byte that may begin an apostrophe in UTF-8 (' ` or the lead byte of ’ ‘ ʼ ʻ ´). */
function mayHoldApostrophe(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b === 0x27 || b === 0x60 || b === 0xe2 || b === 0xca || b === 0xc2) return true;
  return false;
}

export class PlacesIndexWriter {
  private readonly spools = new Map<number, SectionSpool>();
  private readonly ids = new Growable(Uint32Array);
  /** Per place, what its postings carry. */
  private readonly base = new Growable(Float32Array);
  private readonly country = new Growable(Uint16Array);
  private readonly admin1 = new Growable(Uint16Array);
  private readonly feature = new Growable(Uint16Array);
  private readonly flags = new Growable(Uint8Array);
  private readonly malus: number[];
  /** Typo variants: untagged hash, (window << 8 | length tag), typo record offset; sorted in finish(). */
  private readonly variantHash = new Growable(Uint32Array);
  private readonly variantTag = new Growable(Uint32Array);
  private readonly variantRecord = new Growable(Uint32Array);
  private readonly keys: KeyTableWriter;
  private fuzzy = 0;
  private postingCount = 0;

  constructor(
    private readonly tables: PlacesTables,
    workDir: string,
  ) {
    for (const s of STREAMED) this.spools.set(s, new SectionSpool(path.join(workDir, `section-${s}.bin`)));
    const blocks = this.spool(Section.keyBlocks);
    this.keys = new KeyTableWriter((b) => blocks.bytes(b));
    this.malus = tables.features.map((f) => featureMalus(f.featureClass, f.featureCode));
  }

  private spool(s: number): SectionSpool {
    return this.spools.get(s)!;
  }

  get placeCount(): number {
    return this.ids.length;
  }

  get keyCount(): number {
    return this.keys.count;
  }

  /** Adds the next place; places must come in rank order (best first). */
  addPlace(p: PlaceRow): void {
    const population = Math.min(MAX_U32, Math.max(0, Math.round(p.population)));
    const name = encoder.encode(p.name);
    const names = this.spool(Section.names);
    const record = this.spool(Section.places);
    record.u32(p.geonameId);
    record.i32(Math.round(p.lat * COORD_SCALE));
    record.i32(Math.round(p.lon * COORD_SCALE));
    record.u32(population);
    for (const v of [p.country, p.admin1, p.feature, p.timezone]) record.u16(u16(v));
    record.u32(names.length);
    record.u32(name.byteLength);
    const inline = new Uint8Array(NAME_INLINE);
    inline.set(name.subarray(0, NAME_INLINE));
    record.bytes(inline);
    names.bytes(name);
    this.ids.push(p.geonameId);
    this.base.push(populationScore(population) - (this.malus[p.feature] ?? 0));
    this.country.push(u16(p.country));
    this.admin1.push(u16(p.admin1));
    this.feature.push(u16(p.feature));
    this.flags.push(mayHoldApostrophe(name) && foldKeepingApostrophes(p.name) !== foldName(p.name) ? APOSTROPHE_FLAG : 0);
  }

  /**
   * Adds a folded key with its postings (`placeIndex * 4 + primary * 2 + weak`, ascending by
   * place); all places must have been added. `fuzzy` marks keys that take part in typo matching.
   */
  addKey(key: string, postings: ArrayLike<number>, fuzzy: boolean): void {
    const bytes = encoder.encode(key);
    const field = `postings of ${JSON.stringify(key)}`;
    const first = this.postingCount;
    let previous = -1;
    for (let i = 0; i < postings.length; i++) {
      const place = postings[i]! >>> POSTING_SHIFT;
      if (place <= previous) throw new DataFormatError({ field }, "place indexes in strictly ascending order", `${place} after ${previous}`);
      if (place >= this.placeCount) throw new DataFormatError({ field }, `place indexes below ${this.placeCount}`, `${place}`);
      previous = place;
    }
    this.keys.add(bytes, first, postings.length | (fuzzy ? TYPO_KEY_FLAG : 0), "names.key");
    const out = this.spool(Section.postings);
    const [base, country, admin1, feature, flags] = [this.base.view(), this.country.view(), this.admin1.view(), this.feature.view(), this.flags.view()];
    for (let i = 0; i < postings.length; i++) {
      const posting = postings[i]!;
      const place = posting >>> POSTING_SHIFT;
      out.u32(posting);
      out.f32(base[place]!);
      out.u16(country[place]!);
      out.u16(admin1[place]!);
      out.u16(feature[place]!);
      out.u16(flags[place]!);
    }
    this.postingCount += postings.length;
    if (fuzzy) {
      this.fuzzy++;
      const typo = this.spool(Section.typoKeys);
      const record = typo.length;
      typo.u32(first);
      typo.u32(postings.length);
      typo.u16(bytes.byteLength);
      typo.bytes(bytes);
      const length = codePointLength(key);
      const deletes = indexedDeletions(length);
      const windows: [number, "prefix" | "suffix"][] = length > TYPO_PREFIX ? [[0, "prefix"], [1, "suffix"]] : [[0, "prefix"]];
      for (const [w, window] of windows) {
        for (const h of rawVariantHashes(key, deletes, window)) {
          this.variantHash.push(h);
          this.variantTag.push((w << 8) | lengthTag(length));
          this.variantRecord.push(record);
        }
      }
    }
  }

  /** Writes the payload (section table, then each section padded to 8 bytes) to `file`. */
  finish(file: string): WrittenPayload {
    const inMemory = new Map<number, Uint8Array>();
    const { countries, continents, admin1, features, timezones } = this.tables;
    const areas: PlacesAreas = { countries, continents, admin1, features, timezones };
    inMemory.set(Section.areas, encoder.encode(JSON.stringify(areas)));
    const { pairs, directory } = this.idPairs();
    inMemory.set(Section.idPairs, pairs);
    inMemory.set(Section.idDirectory, directory);
    inMemory.set(Section.keyDirectory, this.keys.finish());
    const variants = this.variants();
    inMemory.set(Section.variantDirectory, variants.directory);
    inMemory.set(Section.variants, variants.entries);
    const qualifierAreas: number[] = [];
    const table = (entries: readonly { key: string; countries: number[]; admin1: number[] }[], blocks: number, dir: number, field: string): void => {
      const out: Uint8Array[] = [];
      const writer = new KeyTableWriter((b) => out.push(b));
      const sorted = entries.map((e) => ({ bytes: encoder.encode(e.key), e })).sort((a, b) => Buffer.compare(a.bytes, b.bytes));
      for (const { bytes, e } of sorted) {
        writer.add(bytes, qualifierAreas.length, e.countries.length | (e.admin1.length << 16), field);
        qualifierAreas.push(...e.countries, ...e.admin1);
      }
      inMemory.set(dir, writer.finish());
      inMemory.set(blocks, Buffer.concat(out));
    };
    table(this.tables.qualifiers, Section.qualifierBlocks, Section.qualifierDirectory, "qualifiers");
    table(this.tables.qualifierWords.map((w) => ({ key: w.word, countries: w.countries, admin1: w.admin1 })), Section.wordBlocks, Section.wordDirectory, "qualifierWords");
    inMemory.set(Section.qualifierAreas, bytesOf(Uint16Array.from(qualifierAreas)));

    const lengthOf = (s: number): number => inMemory.get(s)?.byteLength ?? this.spool(s).length;
    const head = Buffer.alloc(SECTION_TABLE_BYTES);
    head.writeUInt32LE(SECTION_COUNT, 0);
    let offset = SECTION_TABLE_BYTES;
    for (let s = 0; s < SECTION_COUNT; s++) {
      const length = lengthOf(s);
      head.writeUInt32LE(offset, 4 + s * 8);
      head.writeUInt32LE(length, 8 + s * 8);
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
      write(head);
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

  /** (GeoNames id, place) pairs sorted by id and every IDS_PER_BLOCK-th id; duplicate ids are refused. */
  private idPairs(): { pairs: Uint8Array; directory: Uint8Array } {
    const ids = this.ids.view();
    const order = sortedOrder(ids.length, [(i) => ids[i]! & 0xffff, (i) => ids[i]! >>> 16]);
    const pairs = new Uint32Array(2 * ids.length);
    const directory = new Uint32Array(Math.ceil(ids.length / IDS_PER_BLOCK));
    for (let i = 0; i < order.length; i++) {
      const place = order[i]!;
      if (i > 0 && ids[place] === ids[order[i - 1]!]) throw new DataFormatError({ field: "geonameid" }, "unique GeoNames ids", `${ids[place]} twice`);
      pairs[2 * i] = ids[place]!;
      pairs[2 * i + 1] = place;
      if (i % IDS_PER_BLOCK === 0) directory[i / IDS_PER_BLOCK] = ids[place]!;
    }
    return { pairs: bytesOf(pairs), directory: bytesOf(directory) };
  }

  /**
   * The variant entries sorted by (hash, window, length, typo record) and their block directory
   * (variants.ts): (first hash, first entry) per block, then (0xffffffff, entry count).
   */
  private variants(): { entries: Uint8Array; directory: Uint8Array } {
    const hash = this.variantHash.view();
    const tag = this.variantTag.view();
    const record = this.variantRecord.view();
    // Records were added in ascending order: a stable sort keeps them so within equal (hash, tag).
    const order = sortedOrder(hash.length, [(i) => tag[i]!, (i) => hash[i]! & 0xffff, (i) => hash[i]! >>> 16]);
    const blocks = new Growable(Uint32Array);
    const entries = Buffer.alloc(VARIANT_BYTES * hash.length);
    let blockStart = 0;
    let blockGroup = -1;
    for (let i = 0; i < order.length; i++) {
      const v = order[i]!;
      const h = hash[v]!;
      if (groupOf(h) !== blockGroup || i - blockStart === ENTRIES_PER_BLOCK) {
        blocks.push(h);
        blocks.push(i);
        blockStart = i;
        blockGroup = groupOf(h);
      }
      entries.writeUInt16LE(h & 0xffff, VARIANT_BYTES * i);
      entries.writeUInt16LE(tag[v]!, VARIANT_BYTES * i + 2);
      entries.writeUInt32LE(record[v]!, VARIANT_BYTES * i + 4);
    }
    blocks.push(0xffffffff);
    blocks.push(hash.length);
    return { entries, directory: bytesOf(blocks.view()) };
  }
}

/** Indexes 0..n-1 in the order of the digits (16-bit, least significant first): a stable LSD radix sort. */
function sortedOrder(n: number, digits: readonly ((i: number) => number)[]): Uint32Array {
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  for (const digit of digits) {
    const counts = new Uint32Array(65537);
    for (let i = 0; i < n; i++) counts[digit(order[i]!) + 1]!++;
    for (let d = 1; d <= 65536; d++) counts[d]! += counts[d - 1]!;
    const next = new Uint32Array(n);
    for (let i = 0; i < n; i++) next[counts[digit(order[i]!)]!++] = order[i]!;
    order = next;
  }
  return order;
}

function bytesOf(array: Uint16Array | Uint32Array | Int32Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}
