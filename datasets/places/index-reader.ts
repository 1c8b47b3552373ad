/**
 * Reads the places search index payload (FORMAT.md) without copying: every section is a typed
 * array view into the loaded buffer. Lookups return place indexes; not found is `undefined`.
 */
import { DataFormatError } from "../common/errors.ts";
import { COORD_SCALE, NONE16, SECTION_COUNT, SECTION_TABLE_BYTES, Section, type PlacesTables } from "./index-format.ts";

const decoder = new TextDecoder();

/** Three-way comparison of `a` with bytes[start, end) (unsigned bytes, then length). */
export function compareBytes(a: Uint8Array, bytes: Uint8Array, start: number, end: number): number {
  const n = Math.min(a.length, end - start);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - bytes[start + i]!;
    if (d !== 0) return d;
  }
  return a.length - (end - start);
}

export class PlacesIndex {
  readonly tables: PlacesTables;
  readonly placeCount: number;
  readonly keyCount: number;
  readonly geonameId: Uint32Array;
  readonly latE7: Int32Array;
  readonly lonE7: Int32Array;
  readonly population: Uint32Array;
  readonly country: Uint16Array;
  readonly admin1: Uint16Array;
  readonly feature: Uint16Array;
  readonly timezone: Uint16Array;
  readonly nameOffsets: Uint32Array;
  readonly nameBytes: Uint8Array;
  readonly idOrder: Uint32Array;
  readonly keyOffsets: Uint32Array;
  readonly keyBytes: Uint8Array;
  readonly postingOffsets: Uint32Array;
  readonly postings: Uint32Array;
  readonly fuzzyKeys: Uint32Array;
  readonly fuzzyLengths: Uint8Array;
  /** Low 16 bits of the sorted variant hashes; the top 16 bits are the directory slot. */
  readonly variantLow16: Uint16Array;
  readonly variantPostings: Uint32Array;
  /**
   * variantLow16[variantDirectory[t], variantDirectory[t + 1]) are the hashes whose top 16 bits
   * are t: a lookup binary-searches ~V/65536 entries instead of all V.
   */
  readonly variantDirectory: Uint32Array;

  private constructor(payload: Uint8Array, file: string) {
    // Typed-array views need aligned offsets; a pooled Buffer may not be 8-aligned.
    const buf = payload.byteOffset % 8 === 0 ? payload : payload.slice();
    if (buf.byteLength < SECTION_TABLE_BYTES) {
      throw new DataFormatError({ file, offset: 0 }, `a section table of ${SECTION_TABLE_BYTES} bytes`, `${buf.byteLength} bytes`);
    }
    const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const count = dv.getUint32(0, true);
    if (count !== SECTION_COUNT) throw new DataFormatError({ file, offset: 0 }, `${SECTION_COUNT} sections`, `${count}`);
    const section = (s: number): { offset: number; length: number } => {
      const offset = dv.getUint32(4 + s * 8, true);
      const length = dv.getUint32(8 + s * 8, true);
      if (offset % 8 !== 0 || offset + length > buf.byteLength) {
        throw new DataFormatError({ file, field: `section ${s}` }, "an 8-aligned section inside the payload", `offset ${offset}, length ${length}`);
      }
      return { offset: buf.byteOffset + offset, length };
    };
    const u8 = (s: number): Uint8Array => {
      const { offset, length } = section(s);
      return new Uint8Array(buf.buffer, offset, length);
    };
    const u16 = (s: number): Uint16Array => {
      const { offset, length } = section(s);
      return new Uint16Array(buf.buffer, offset, length / 2);
    };
    const u32 = (s: number): Uint32Array => {
      const { offset, length } = section(s);
      return new Uint32Array(buf.buffer, offset, length / 4);
    };
    const i32 = (s: number): Int32Array => {
      const { offset, length } = section(s);
      return new Int32Array(buf.buffer, offset, length / 4);
    };
    try {
      this.tables = JSON.parse(decoder.decode(u8(Section.tables))) as PlacesTables;
    } catch (err) {
      throw new DataFormatError({ file, field: "tables" }, "a JSON tables section", (err as Error).message);
    }
    this.geonameId = u32(Section.geonameId);
    this.placeCount = this.geonameId.length;
    this.latE7 = i32(Section.latE7);
    this.lonE7 = i32(Section.lonE7);
    this.population = u32(Section.population);
    this.country = u16(Section.country);
    this.admin1 = u16(Section.admin1);
    this.feature = u16(Section.feature);
    this.timezone = u16(Section.timezone);
    this.nameOffsets = u32(Section.nameOffsets);
    this.nameBytes = u8(Section.nameBytes);
    this.idOrder = u32(Section.idOrder);
    this.keyOffsets = u32(Section.keyOffsets);
    this.keyBytes = u8(Section.keyBytes);
    this.postingOffsets = u32(Section.postingOffsets);
    this.postings = u32(Section.postings);
    this.fuzzyKeys = u32(Section.fuzzyKeys);
    this.fuzzyLengths = u8(Section.fuzzyLengths);
    this.variantDirectory = u32(Section.variantDirectory);
    this.variantLow16 = u16(Section.variantLow16);
    this.variantPostings = u32(Section.variantPostings);
    this.keyCount = this.keyOffsets.length - 1;
    const n = this.placeCount;
    for (const [name, len, want] of [
      ["latE7", this.latE7.length, n], ["lonE7", this.lonE7.length, n], ["population", this.population.length, n],
      ["country", this.country.length, n], ["admin1", this.admin1.length, n], ["feature", this.feature.length, n],
      ["timezone", this.timezone.length, n], ["nameOffsets", this.nameOffsets.length, n + 1], ["idOrder", this.idOrder.length, n],
      ["postingOffsets", this.postingOffsets.length, this.keyCount + 1], ["fuzzyLengths", this.fuzzyLengths.length, this.fuzzyKeys.length],
      ["variantPostings", this.variantPostings.length, this.variantLow16.length],
      ["variantDirectory", this.variantDirectory.length, 65537],
    ] as const) {
      if (len !== want) throw new DataFormatError({ file, field: name }, `${want} entries`, `${len}`);
    }
  }

  /** Opens a payload (the envelope already checked by the caller). */
  static from(payload: Uint8Array, file = "places.idx"): PlacesIndex {
    return new PlacesIndex(payload, file);
  }

  name(place: number): string {
    return decoder.decode(this.nameBytes.subarray(this.nameOffsets[place]!, this.nameOffsets[place + 1]!));
  }

  lat(place: number): number {
    return this.latE7[place]! / COORD_SCALE;
  }

  lon(place: number): number {
    return this.lonE7[place]! / COORD_SCALE;
  }

  /** Index into tables.countries, or undefined. */
  countryOf(place: number): number | undefined {
    const c = this.country[place]!;
    return c === NONE16 ? undefined : c;
  }

  admin1Of(place: number): number | undefined {
    const a = this.admin1[place]!;
    return a === NONE16 ? undefined : a;
  }

  timezoneOf(place: number): string | undefined {
    const t = this.timezone[place]!;
    return t === NONE16 ? undefined : this.tables.timezones[t];
  }

  /** The place index of a GeoNames id, or undefined. */
  placeByGeonameId(id: number): number | undefined {
    let lo = 0;
    let hi = this.placeCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.geonameId[this.idOrder[mid]!]!;
      if (v < id) lo = mid + 1;
      else hi = mid;
    }
    if (lo < this.placeCount && this.geonameId[this.idOrder[lo]!] === id) return this.idOrder[lo]!;
    return undefined;
  }

  key(k: number): string {
    return decoder.decode(this.keyBytes.subarray(this.keyOffsets[k]!, this.keyOffsets[k + 1]!));
  }

  /** First key index whose bytes are >= `bytes`. */
  lowerBound(bytes: Uint8Array): number {
    let lo = 0;
    let hi = this.keyCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareBytes(bytes, this.keyBytes, this.keyOffsets[mid]!, this.keyOffsets[mid + 1]!) > 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The key index equal to `bytes`, or undefined. */
  findKey(bytes: Uint8Array): number | undefined {
    const k = this.lowerBound(bytes);
    if (k < this.keyCount && compareBytes(bytes, this.keyBytes, this.keyOffsets[k]!, this.keyOffsets[k + 1]!) === 0) return k;
    return undefined;
  }

  /** Whether key `k` starts with `prefix`. */
  keyHasPrefix(k: number, prefix: Uint8Array): boolean {
    const start = this.keyOffsets[k]!;
    if (this.keyOffsets[k + 1]! - start < prefix.length) return false;
    for (let i = 0; i < prefix.length; i++) if (this.keyBytes[start + i] !== prefix[i]) return false;
    return true;
  }
}
