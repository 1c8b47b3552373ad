/**
 * The id directory of one report family in stations.idx (FORMAT.md, "Directories"): every known
 * station (station lists and reporting stations) sorted by identifier, as fixed 8-byte keys, and
 * per station the byte offset and record count of its series block and where its answer's JSON
 * text lies. `encodeDirectory` is the writer's half; `StationDirectory` the reader's: the keys and
 * entries stay resident (28 bytes a station), a lookup is a binary search and one read of the
 * station's block or of its answer.
 */
import { crc32 } from "node:zlib";
import { ScratchReads, type ByteSource } from "../common/byte-source.ts";
import { DataFormatError } from "../common/errors.ts";
import type { ObservationKind } from "./record.ts";
import { seriesBlockBytes, seriesOfBlock, type StationSeries } from "./series.ts";

/** Bytes of an identifier key: ASCII, zero-padded (ICAO 4, WMO index 5). */
export const ID_BYTES = 8;

/** An identifier a key can hold: 1-8 printable ASCII characters. */
const STORABLE_ID = /^[\x21-\x7e]{1,8}$/;

export function storableId(id: string): boolean {
  return STORABLE_ID.test(id);
}

/** The key of an identifier (storableId), written at `at` of `into`. */
function writeKey(id: string, into: Uint8Array, at: number): void {
  into.fill(0, at, at + ID_BYTES);
  for (let k = 0; k < id.length; k++) into[at + k] = id.charCodeAt(k);
}

/**
 * One station of a directory as the writer sees it; offset and count 0 when it has not reported.
 * `answerOffset` and `answerBytes`: where its answer's JSON text lies in the family's `answers`
 * section, `answerCrc` the text's CRC-32 (0, 0 and 0 when it has not reported).
 */
export interface DirectoryEntry {
  id: string;
  /** Byte offset of its series block in the `series` section (a multiple of 8). */
  offset: number;
  count: number;
  answerOffset: number;
  answerBytes: number;
  answerCrc: number;
}

/** Words of an `answerEntries` entry: offset, bytes, CRC-32 of the text. */
export const ANSWER_WORDS = 3;

/** The directory's sections, entries sorted by id (byte order of the keys). */
export function encodeDirectory(entries: readonly DirectoryEntry[]): { ids: Uint8Array; entries: Uint32Array; answerEntries: Uint32Array; order: DirectoryEntry[] } {
  const order = [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const ids = new Uint8Array(order.length * ID_BYTES);
  const words = new Uint32Array(order.length * 2);
  const answerWords = new Uint32Array(order.length * ANSWER_WORDS);
  order.forEach((e, k) => {
    writeKey(e.id, ids, k * ID_BYTES);
    if (e.offset > 0xffffffff) throw new RangeError(`stations.idx: series offset ${e.offset} above 4 GiB (u32)`);
    if (e.answerOffset + e.answerBytes > 0xffffffff) throw new RangeError(`stations.idx: answer end ${e.answerOffset + e.answerBytes} above 4 GiB (u32)`);
    words[2 * k] = e.offset;
    words[2 * k + 1] = e.count;
    answerWords[ANSWER_WORDS * k] = e.answerOffset;
    answerWords[ANSWER_WORDS * k + 1] = e.answerBytes;
    answerWords[ANSWER_WORDS * k + 2] = e.answerCrc;
  });
  return { ids, entries: words, answerEntries: answerWords, order };
}

export interface DirectoryParts {
  kind: ObservationKind;
  source: ByteSource;
  file: string;
  /** `<kind>.ids`: ID_BYTES per station, ascending. */
  ids: Uint8Array;
  /** `<kind>.entries`: (offset, count) per station. */
  entries: Uint32Array;
  /** `<kind>.answerEntries`: (offset, bytes, CRC-32) per station of its answer's text in `<kind>.answers`. */
  answerEntries: Uint32Array;
  /** Payload offset and size of the `series` section. */
  seriesAt: number;
  seriesBytes: number;
  /** Payload offset and size of the `<kind>.answers` section. */
  answersAt: number;
  answersBytes: number;
  /** The string table (wids). */
  strings: readonly string[];
}

export class StationDirectory {
  readonly kind: ObservationKind;
  /** Stations of the family: listed or reporting. */
  readonly knownCount: number;
  /** Stations with at least one observation. */
  readonly reportingCount: number;
  private readonly keys: Buffer;
  private readonly key = new Uint8Array(ID_BYTES);
  /** One bit per station: its answer's CRC-32 was checked by this process (see answerOf). */
  private readonly answerChecked: Uint8Array;
  /** Where answerOf reads (grown to the longest answer read): no allocation of 20-30 KB a request. */
  private readonly answerReads: ScratchReads;

  constructor(private readonly parts: DirectoryParts) {
    const { ids, entries, answerEntries, file } = parts;
    this.kind = parts.kind;
    this.knownCount = ids.length / ID_BYTES;
    this.keys = Buffer.from(ids.buffer, ids.byteOffset, ids.byteLength);
    // Unbounded: an answer is one station's recent reports, tens of KB.
    this.answerReads = new ScratchReads(parts.source, Number.POSITIVE_INFINITY);
    const fail = (field: string, expected: string, got: string): never => {
      throw new DataFormatError({ file, field: `${parts.kind}.${field}` }, expected, got);
    };
    if (!Number.isInteger(this.knownCount) || entries.length !== 2 * this.knownCount) fail("entries", `2 words for each of ${this.knownCount} ids`, `${entries.length} words`);
    if (answerEntries.length !== ANSWER_WORDS * this.knownCount) fail("answerEntries", `${ANSWER_WORDS} words for each of ${this.knownCount} ids`, `${answerEntries.length} words`);
    this.answerChecked = new Uint8Array(Math.ceil(this.knownCount / 8));
    let reporting = 0;
    for (let k = 0; k < this.knownCount; k++) {
      if (k > 0 && this.keys.compare(this.keys, (k - 1) * ID_BYTES, k * ID_BYTES, k * ID_BYTES, (k + 1) * ID_BYTES) <= 0) fail("ids", "identifiers in ascending order", `${this.idAt(k - 1)} before ${this.idAt(k)}`);
      const offset = entries[2 * k]!;
      const count = entries[2 * k + 1]!;
      if (count > 0) reporting++;
      if (offset % 8 !== 0 || offset + seriesBlockBytes(count) > parts.seriesBytes) fail("entries", `aligned blocks within the ${parts.seriesBytes} bytes of series`, `offset ${offset}, ${count} records for ${this.idAt(k)}`);
      const answerBytes = answerEntries[ANSWER_WORDS * k + 1]!;
      if ((count > 0) !== (answerBytes > 0) || answerEntries[ANSWER_WORDS * k]! + answerBytes > parts.answersBytes) {
        fail("answerEntries", `an answer within the ${parts.answersBytes} bytes of answers for each reporting station, none for another`, `offset ${answerEntries[ANSWER_WORDS * k]}, ${answerBytes} bytes for ${this.idAt(k)} (${count} records)`);
      }
    }
    this.reportingCount = reporting;
  }

  /** The identifier of entry k. */
  idAt(k: number): string {
    const at = k * ID_BYTES;
    let end = at + ID_BYTES;
    while (end > at && this.keys[end - 1] === 0) end--;
    return this.keys.toString("latin1", at, end);
  }

  /** The entry of `id`, or -1. */
  indexOf(id: string): number {
    if (!storableId(id)) return -1;
    const key = this.key;
    writeKey(id, key, 0);
    const keys = this.keys;
    let lo = 0;
    let hi = this.knownCount;
    // Bytes compared here, not by Buffer.compare: a call into C++ per probe costs more than the 8 bytes.
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = mid * ID_BYTES;
      let c = 0;
      for (let b = 0; b < ID_BYTES && c === 0; b++) c = keys[at + b]! - key[b]!;
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return -1;
  }

  has(id: string): boolean {
    return this.indexOf(id) >= 0;
  }

  /** The station's observations, or undefined when it has none (or is not known). */
  get(id: string): StationSeries | undefined {
    const k = this.indexOf(id);
    return k < 0 ? undefined : this.seriesAt(k);
  }

  /** The number of observations of entry k. */
  countAt(k: number): number {
    return this.parts.entries[2 * k + 1]!;
  }

  /** The observations of entry k (one read), or undefined when it has none. */
  seriesAt(k: number): StationSeries | undefined {
    const offset = this.parts.entries[2 * k]!;
    const count = this.parts.entries[2 * k + 1]!;
    if (count === 0) return undefined;
    const field = (): string => `series (${this.kind} ${this.idAt(k)})`;
    const bytes = this.parts.source.read(this.parts.seriesAt + offset, seriesBlockBytes(count));
    return seriesOfBlock(bytes, count, this.parts.strings, this.parts.file, field);
  }

  /**
   * The JSON text of the answer's family member for `id` (one read: FORMAT.md, "Answers"), or
   * undefined when the station has not reported or is not known. The first read of a station's
   * answer in this process checks the text's CRC-32 and remembers it (one bit): checking each
   * read would cost more than the rest of the request (the CRC of 20-30 KB); damage after that
   * first read is the background scrub's to find. A read that fails the check (bit rot, a
   * truncated file) is a DataFormatError naming the station.
   * The bytes are a view of the directory's scratch buffer, valid until its next answerOf: the
   * caller copies them (the wire layer copies them into the body at once). Measured over HTTP,
   * a new buffer per read cost more in garbage collection than the copy.
   */
  answerOf(id: string): Uint8Array | undefined {
    const k = this.indexOf(id);
    if (k < 0) return undefined;
    const entries = this.parts.answerEntries;
    const offset = entries[ANSWER_WORDS * k]!;
    const length = entries[ANSWER_WORDS * k + 1]!;
    if (length === 0) return undefined;
    const bytes = this.answerReads.read(this.parts.answersAt + offset, length);
    const bit = 1 << (k & 7);
    if ((this.answerChecked[k >>> 3]! & bit) === 0) {
      const crc = bytes.byteLength === length ? crc32(bytes) : undefined;
      if (crc !== entries[ANSWER_WORDS * k + 2]) {
        const got = crc === undefined ? `${bytes.byteLength} bytes (truncated file)` : `CRC-32 ${crc.toString(16).padStart(8, "0")}`;
        throw new DataFormatError({ file: this.parts.file, field: `${this.kind}.answers (${this.idAt(k)})`, offset }, `${length} bytes of CRC-32 ${entries[ANSWER_WORDS * k + 2]!.toString(16).padStart(8, "0")}`, got);
      }
      this.answerChecked[k >>> 3]! |= bit;
    }
    return bytes;
  }

  /** The identifiers of the stations with observations, in directory order. */
  *reporting(): IterableIterator<string> {
    for (let k = 0; k < this.knownCount; k++) if (this.parts.entries[2 * k + 1]! > 0) yield this.idAt(k);
  }
}
