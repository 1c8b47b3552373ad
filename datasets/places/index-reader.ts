/**
 * Reads the places search index (FORMAT.md) where it lies, through a byte source: opening checks
 * the section table against the payload and the metadata's counts and keeps only the small parts
 * (the areas tables, the key tables' directories, the GeoNames id directory, the typo variants'
 * directory, the typo key records); everything else is a positioned read per request. A damaged
 * part met while serving is a DataFormatError naming it.
 */
import { openArtifactFile, type BuildMetadata } from "../artifact/envelope.ts";
import { DATASETS } from "../catalog.ts";
import { ScratchReads, type ByteSource } from "../common/byte-source.ts";
import { DataFormatError } from "../common/errors.ts";
import {
  COORD_SCALE, IDS_PER_BLOCK, NAME_INLINE, NONE16, PLACE_BYTES, POSTING_BYTES, SECTION_COUNT, SECTION_TABLE_BYTES, Section,
  TYPO_RECORD_HEAD, VARIANT_BYTES, type PlacesAreas,
} from "./index-format.ts";
import { KeyTable, SCRATCH_MAX_BYTES } from "./key-table.ts";
import { Postings } from "./postings.ts";
import { GROUPS, groupOf } from "./variants.ts";

const decoder = new TextDecoder();
/** Bytes between two spans below which one read takes both (a read costs about as much as copying 4 KiB). */
const COALESCE_GAP = 4096;
/** Spans one readSpans call may take (2^20): with section offsets below 2^32, offset * SPAN_SLOTS + i stays an exact float64. */
const SPAN_SLOTS = 2 ** 20;
const EMPTY_WORDS = new Uint32Array(0);

/** One place's record (FORMAT.md, section `places`). Table indexes are undefined for none. */
export interface PlaceRecord {
  geonameId: number;
  name: string;
  /** Degrees. */
  lat: number;
  lon: number;
  population: number;
  country: number | undefined;
  admin1: number | undefined;
  feature: number | undefined;
  timezone: number | undefined;
}

/** A typo key's record (FORMAT.md, section `typoKeys`). */
export interface TypoKey {
  postingStart: number;
  postingCount: number;
  bytes: Uint8Array;
}

interface Span {
  offset: number;
  length: number;
}

export class PlacesIndex {
  readonly areas: PlacesAreas;
  readonly placeCount: number;
  readonly keyCount: number;
  readonly typoKeyCount: number;
  /** The folded names (FORMAT.md "Key tables"): values are the first posting and the posting count (| TYPO_KEY_FLAG). */
  readonly keys: KeyTable;
  /** Qualifier keys and words: values are the start in `qualifierAreas` and (countries | admin1 << 16) counts. */
  readonly qualifiers: KeyTable;
  readonly words: KeyTable;
  private readonly span: Span[];
  private readonly idDirectory: Uint32Array;
  /** The variant blocks (variants.ts): words 2k and 2k + 1 are block k's first hash and first entry; a sentinel ends them. */
  private readonly variantBlocks: Uint32Array;
  /** Blocks, without the sentinel. */
  readonly variantBlockCount: number;
  /**
   * The typo key records (section `typoKeys`), held whole: a search checks some 17 candidates'
   * keys without a read. The section is bounded by the pipeline's --typo-places and
   * --typo-alternates, not by the gazetteer (4.2 MB for the embedded default's 204,587 places; in
   * proportion about 10 MB at the default 500,000).
   */
  private readonly typoRecords: Uint8Array;
  /** Per group g (a hash's top 16 bits), its first block; a group's blocks are [groupBlock[g], groupBlock[g + 1]). Built at open: 256 KiB. */
  private readonly groupBlock = new Uint32Array(GROUPS + 1);
  /** Where `postings` reads (common/byte-source.ts ScratchReads): a prefix's postings may be hundreds of KB. */
  private readonly postingReads: ScratchReads;

  private constructor(private readonly source: ByteSource, metadata: BuildMetadata, readonly file: string) {
    const fail = (field: string, expected: string, got: string | number): never => {
      throw new DataFormatError({ file, field }, expected, String(got));
    };
    const payloadBytes = metadata.payloadBytes;
    this.postingReads = new ScratchReads(source, SCRATCH_MAX_BYTES);
    const table = this.read(0, SECTION_TABLE_BYTES, "section table");
    const dv = new DataView(table.buffer, table.byteOffset, table.byteLength);
    const count = dv.getUint32(0, true);
    if (count !== SECTION_COUNT) fail("section table", `${SECTION_COUNT} sections`, count);
    this.span = [];
    for (let s = 0; s < SECTION_COUNT; s++) {
      const offset = dv.getUint32(4 + s * 8, true);
      const length = dv.getUint32(8 + s * 8, true);
      if (offset % 8 !== 0 || offset < SECTION_TABLE_BYTES || offset + length > payloadBytes) fail(`section ${s}`, `an 8-aligned section inside the ${payloadBytes}-byte payload`, `offset ${offset}, length ${length}`);
      this.span.push({ offset, length });
    }
    const counts = metadata.counts;
    this.placeCount = counts.places ?? fail("metadata.counts.places", "a place count", "none");
    this.keyCount = counts.keys ?? fail("metadata.counts.keys", "a key count", "none");
    this.typoKeyCount = counts.fuzzyKeys ?? fail("metadata.counts.fuzzyKeys", "a typo key count", "none");
    const expectLength = (s: number, name: string, bytes: number): void => {
      if (this.span[s]!.length !== bytes) fail(name, `${bytes} bytes`, this.span[s]!.length);
    };
    expectLength(Section.places, "places", this.placeCount * PLACE_BYTES);
    expectLength(Section.idPairs, "idPairs", this.placeCount * 8);
    expectLength(Section.idDirectory, "idDirectory", Math.ceil(this.placeCount / IDS_PER_BLOCK) * 4);
    if (this.span[Section.postings]!.length % POSTING_BYTES !== 0) fail("postings", `a multiple of ${POSTING_BYTES} bytes`, this.span[Section.postings]!.length);
    if (this.span[Section.variants]!.length % VARIANT_BYTES !== 0) fail("variants", `a multiple of ${VARIANT_BYTES} bytes`, this.span[Section.variants]!.length);
    try {
      this.areas = JSON.parse(decoder.decode(this.whole(Section.areas, "areas"))) as PlacesAreas;
    } catch (err) {
      if (err instanceof DataFormatError) throw err;
      throw new DataFormatError({ file, field: "areas" }, "a JSON areas section", (err as Error).message);
    }
    if (!Array.isArray(this.areas.countries) || !Array.isArray(this.areas.admin1) || !Array.isArray(this.areas.features) || !Array.isArray(this.areas.timezones)) {
      fail("areas", "countries, continents, admin1, features and timezones", Object.keys(this.areas).join(", "));
    }
    const keyTable = (blocks: number, directory: number, name: string): KeyTable =>
      new KeyTable(source, this.whole(directory, `${name} directory`), this.span[blocks]!.offset, this.span[blocks]!.length, file, name);
    this.keys = keyTable(Section.keyBlocks, Section.keyDirectory, "keys");
    this.qualifiers = keyTable(Section.qualifierBlocks, Section.qualifierDirectory, "qualifiers");
    this.words = keyTable(Section.wordBlocks, Section.wordDirectory, "qualifierWords");
    this.idDirectory = u32s(this.whole(Section.idDirectory, "idDirectory"));
    this.variantBlocks = u32s(this.whole(Section.variantDirectory, "variantDirectory"));
    this.variantBlockCount = (this.variantBlocks.length >>> 1) - 1;
    const entries = this.span[Section.variants]!.length / VARIANT_BYTES;
    if (this.variantBlocks.length % 2 !== 0 || this.variantBlockCount < 0 || this.variantBlocks[this.variantBlocks.length - 1] !== entries) {
      fail("variantDirectory", `(first hash, first entry) pairs ending with the entry count ${entries}`, `${this.variantBlocks.length} words ending at ${this.variantBlocks[this.variantBlocks.length - 1]}`);
    }
    let group = 0;
    for (let k = 0; k < this.variantBlockCount; k++) {
      const g = groupOf(this.variantBlocks[2 * k]!);
      if (g < group - 1) fail(`variantDirectory[${k}]`, "blocks in ascending hash order", `group ${g} after ${group - 1}`);
      while (group <= g) this.groupBlock[group++] = k;
    }
    while (group <= GROUPS) this.groupBlock[group++] = this.variantBlockCount;
    this.typoRecords = this.whole(Section.typoKeys, "typoKeys");
  }

  /** Opens the index over a byte source whose envelope (magic, version, metadata, size) is checked. */
  static open(source: ByteSource, metadata: BuildMetadata, file = "places.idx"): PlacesIndex {
    return new PlacesIndex(source, metadata, file);
  }

  close(): void {
    this.source.close?.();
  }

  /** Bytes [offset, offset + length) of the payload (any alignment), or a view of `reads`' buffer; a short read is a truncated file. */
  private read(offset: number, length: number, field: string, reads?: ScratchReads): Uint8Array {
    const bytes = reads === undefined ? this.source.read(offset, length) : reads.read(offset, length);
    if (bytes.byteLength !== length) throw new DataFormatError({ file: this.file, field, offset }, `${length} bytes`, `${bytes.byteLength} (truncated file)`);
    return bytes;
  }

  private whole(s: number, field: string): Uint8Array {
    return this.read(this.span[s]!.offset, this.span[s]!.length, field);
  }

  private at(s: number, offset: number, length: number, field: string, reads?: ScratchReads): Uint8Array {
    const span = this.span[s]!;
    if (offset < 0 || offset + length > span.length) throw new DataFormatError({ file: this.file, field }, `bytes within the ${span.length}-byte section`, `[${offset}, ${offset + length})`);
    return this.read(span.offset + offset, length, field, reads);
  }

  /** A place's record and name: one read, two for a name longer than NAME_INLINE bytes. */
  record(place: number): PlaceRecord {
    if (!(place >= 0 && place < this.placeCount)) throw new RangeError(`place index ${place} outside 0..${this.placeCount - 1}`);
    const b = this.at(Section.places, place * PLACE_BYTES, PLACE_BYTES, `places[${place}]`);
    const dv = new DataView(b.buffer, b.byteOffset, PLACE_BYTES);
    const index = (at: number): number | undefined => {
      const v = dv.getUint16(at, true);
      return v === NONE16 ? undefined : v;
    };
    const nameLength = dv.getUint32(28, true);
    const name = nameLength <= NAME_INLINE ? b.subarray(32, 32 + nameLength) : this.at(Section.names, dv.getUint32(24, true), nameLength, `name of place ${place}`);
    return {
      geonameId: dv.getUint32(0, true),
      name: decoder.decode(name),
      lat: dv.getInt32(4, true) / COORD_SCALE,
      lon: dv.getInt32(8, true) / COORD_SCALE,
      population: dv.getUint32(12, true),
      country: index(16),
      admin1: index(18),
      feature: index(20),
      timezone: index(22),
    };
  }

  /** The place index of a GeoNames id, or undefined: one read of the id's block. */
  placeByGeonameId(id: number): number | undefined {
    const dir = this.idDirectory;
    let lo = 0;
    let hi = dir.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (dir[mid]! <= id) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) return undefined;
    const block = lo - 1;
    const pairs = Math.min(IDS_PER_BLOCK, this.placeCount - block * IDS_PER_BLOCK);
    const b = u32s(this.at(Section.idPairs, block * IDS_PER_BLOCK * 8, pairs * 8, `idPairs block ${block}`));
    for (let i = 0; i < pairs; i++) if (b[2 * i] === id) return b[2 * i + 1]!;
    return undefined;
  }

  /** Postings [start, start + count): a view of the index's read buffer, valid until its next call. */
  postings(start: number, count: number): Postings {
    return new Postings(this.at(Section.postings, start * POSTING_BYTES, count * POSTING_BYTES, "postings", this.postingReads));
  }

  /** The typo key records at `offsets` (byte offsets in the section, held in memory), in that order. */
  typoKeys(offsets: readonly number[]): TypoKey[] {
    const records = this.typoRecords;
    const keys = new Array<TypoKey>(offsets.length);
    for (let i = 0; i < offsets.length; i++) {
      const at = offsets[i]!;
      const length = at + TYPO_RECORD_HEAD <= records.byteLength ? records[at + 8]! | (records[at + 9]! << 8) : -1;
      if (length < 0 || at + TYPO_RECORD_HEAD + length > records.byteLength) {
        throw new DataFormatError({ file: this.file, field: "typoKeys", offset: at }, `a typo key record within the ${records.byteLength}-byte section`, length < 0 ? "its head past the end" : `a key of ${length} bytes past the end`);
      }
      keys[i] = { postingStart: u32At(records, at), postingCount: u32At(records, at + 4), bytes: records.subarray(at + TYPO_RECORD_HEAD, at + TYPO_RECORD_HEAD + length) };
    }
    return keys;
  }

  /** The postings of several keys, in that order, runs less than COALESCE_GAP apart read together. */
  postingsOf(keys: readonly { postingStart: number; postingCount: number }[]): Postings[] {
    const bytes = this.readSpans(Section.postings, keys.map((k) => k.postingStart * POSTING_BYTES), keys.map((k) => k.postingCount * POSTING_BYTES), "postings");
    return bytes.map((b) => new Postings(b));
  }

  /** Bytes [offsets[i], offsets[i] + lengths[i]) of section `s`, each; spans near each other come from one read. */
  private readSpans(s: number, offsets: readonly number[], lengths: readonly number[], field: string): Uint8Array[] {
    // In offset order: (offset, i) packed in one float64 (exact below 2^53) sort natively, without a comparator.
    const n = offsets.length;
    if (n > SPAN_SLOTS) throw new RangeError(`${n} spans in one read, at most ${SPAN_SLOTS}`);
    const order = new Float64Array(n);
    for (let i = 0; i < n; i++) order[i] = offsets[i]! * SPAN_SLOTS + i;
    order.sort();
    const out: Uint8Array[] = new Array<Uint8Array>(n);
    for (let i = 0; i < n; ) {
      const first = order[i]! % SPAN_SLOTS;
      const start = offsets[first]!;
      let end = start + lengths[first]!;
      let j = i + 1;
      for (; j < n; j++) {
        const k = order[j]! % SPAN_SLOTS;
        if (offsets[k]! > end + COALESCE_GAP) break;
        end = Math.max(end, offsets[k]! + lengths[k]!);
      }
      const run = this.at(s, start, end - start, field);
      for (let m = i; m < j; m++) {
        const k = order[m]! % SPAN_SLOTS;
        out[k] = run.subarray(offsets[k]! - start, offsets[k]! - start + lengths[k]!);
      }
      i = j;
    }
    return out;
  }

  /**
   * For each variant hash, the entries of the blocks that may hold it (FORMAT.md), as words: entry
   * p is words 2p (bits 0-15 the low 16 bits of the hash, 16-23 the length tag, 24-31 the window)
   * and 2p + 1 (the typo record's offset); the blocks' other entries share the hash's top 16 bits.
   * A hash no block holds gets an empty array. Blocks near each other come from one read: the
   * hashes of one group lie in neighbouring blocks.
   */
  variantEntries(hashes: readonly number[]): Uint32Array[] {
    const out = new Array<Uint32Array>(hashes.length);
    const offsets: number[] = [];
    const lengths: number[] = [];
    const asked: number[] = [];
    for (let i = 0; i < hashes.length; i++) {
      const [first, last] = this.entryRange(hashes[i]!);
      if (last <= first) {
        out[i] = EMPTY_WORDS;
        continue;
      }
      offsets.push(first * VARIANT_BYTES);
      lengths.push((last - first) * VARIANT_BYTES);
      asked.push(i);
    }
    if (asked.length === 0) return out;
    const bytes = this.readSpans(Section.variants, offsets, lengths, "variants");
    for (let k = 0; k < asked.length; k++) out[asked[k]!] = u32s(bytes[k]!);
    return out;
  }

  /**
   * Entries [first, last) of the blocks that may hold the hash: among its group's blocks, from the
   * last that begins below it (its run may begin there) to the last that begins at or below it.
   */
  private entryRange(hash: number): [number, number] {
    const blocks = this.variantBlocks;
    const g = groupOf(hash);
    const groupStart = this.groupBlock[g]!;
    const groupEnd = this.groupBlock[g + 1]!;
    // The first of the group's blocks that begins above the hash.
    let hi = groupStart;
    let end = groupEnd;
    while (hi < end) {
      const mid = (hi + end) >>> 1;
      if (blocks[2 * mid]! <= hash) hi = mid + 1;
      else end = mid;
    }
    if (hi === groupStart) return [0, 0];
    // Back over the blocks that begin at the hash, to the one before them (or the group's first).
    let from = hi - 1;
    while (from > groupStart && blocks[2 * from]! === hash) from--;
    const first = blocks[2 * from + 1]!;
    const last = blocks[2 * hi + 1]!;
    if (last < first || last * VARIANT_BYTES > this.span[Section.variants]!.length) {
      throw new DataFormatError({ file: this.file, field: `variantDirectory[${from}..${hi}]` }, `ascending block starts within the ${this.span[Section.variants]!.length / VARIANT_BYTES} entries`, `${first}..${last}`);
    }
    return [first, last];
  }

  /** The countries and admin-1 areas of a qualifier key or word (its two key table values). */
  qualifierAreas(start: number, counts: number): { countries: number[]; admin1: number[] } {
    const nc = counts & 0xffff;
    const na = counts >>> 16;
    const b = this.at(Section.qualifierAreas, start * 2, (nc + na) * 2, "qualifierAreas");
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    const all: number[] = [];
    for (let i = 0; i < nc + na; i++) all.push(dv.getUint16(2 * i, true));
    return { countries: all.slice(0, nc), admin1: all.slice(nc) };
  }
}

/** The little-endian uint32 at bytes[at]. */
function u32At(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

/** A Uint32Array of the bytes (copied when they are not 4-aligned). */
function u32s(bytes: Uint8Array): Uint32Array {
  const b = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
  return new Uint32Array(b.buffer, b.byteOffset, b.byteLength >>> 2);
}

/** Opens places.idx where it lies: the envelope's header and the index's small parts read, nothing else. */
export function openPlacesFile(file: string): { index: PlacesIndex; metadata: BuildMetadata } {
  return openArtifactFile(file, DATASETS.places, (source, metadata) => PlacesIndex.open(source, metadata, file));
}
