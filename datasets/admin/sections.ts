/**
 * Named typed-array sections of a payload: each section starts at a multiple of 8 bytes so that
 * a reader takes zero-copy views (Float64Array needs 8-byte alignment). The table of contents
 * (name, element type, byte offset, element count) travels in the envelope's metadata.
 */
import { DataFormatError } from "../common/errors.ts";

export type SectionType = "f64" | "u32" | "i32" | "u8";

export interface SectionEntry {
  name: string;
  type: SectionType;
  /** Byte offset inside the payload (multiple of 8). */
  offset: number;
  /** Number of elements. */
  length: number;
}

export type SectionArray = Float64Array | Uint32Array | Int32Array | Uint8Array;

const BYTES: Record<SectionType, number> = { f64: 8, u32: 4, i32: 4, u8: 1 };

function typeOf(a: SectionArray): SectionType {
  if (a instanceof Float64Array) return "f64";
  if (a instanceof Uint32Array) return "u32";
  if (a instanceof Int32Array) return "i32";
  return "u8";
}

/** Lays out sections in the given order; returns the payload chunks and the table of contents. */
export function encodeSections(sections: readonly (readonly [string, SectionArray])[]): { chunks: Uint8Array[]; toc: SectionEntry[] } {
  const chunks: Uint8Array[] = [];
  const toc: SectionEntry[] = [];
  let offset = 0;
  for (const [name, array] of sections) {
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    toc.push({ name, type: typeOf(array), offset, length: array.length });
    // Empty sections take no bytes (and no chunk: a zero-length write is a needless edge case).
    if (bytes.byteLength > 0) chunks.push(bytes);
    offset += bytes.byteLength;
    const pad = (8 - (offset % 8)) % 8;
    if (pad > 0) {
      chunks.push(new Uint8Array(pad));
      offset += pad;
    }
  }
  return { chunks, toc };
}

/** Opens sections as views into the payload (which must start at an 8-byte aligned address). */
export class SectionReader {
  private readonly byName = new Map<string, SectionEntry>();

  constructor(
    private readonly payload: Uint8Array,
    toc: readonly SectionEntry[],
    private readonly file: string,
  ) {
    for (const e of toc) this.byName.set(e.name, e);
  }

  private entry(name: string, type: SectionType): SectionEntry {
    const e = this.byName.get(name);
    if (!e) throw new DataFormatError({ file: this.file, field: name }, `a section '${name}'`, "none in the table of contents");
    if (e.type !== type) throw new DataFormatError({ file: this.file, field: name }, `section type ${type}`, e.type);
    const end = e.offset + e.length * BYTES[type];
    if (e.offset % 8 !== 0 || end > this.payload.byteLength) {
      throw new DataFormatError({ file: this.file, field: name, offset: e.offset }, `an aligned section within ${this.payload.byteLength} payload bytes`, `offset ${e.offset}, end ${end}`);
    }
    return e;
  }

  f64(name: string): Float64Array {
    const e = this.entry(name, "f64");
    return new Float64Array(this.payload.buffer, this.payload.byteOffset + e.offset, e.length);
  }

  u32(name: string): Uint32Array {
    const e = this.entry(name, "u32");
    return new Uint32Array(this.payload.buffer, this.payload.byteOffset + e.offset, e.length);
  }

  i32(name: string): Int32Array {
    const e = this.entry(name, "i32");
    return new Int32Array(this.payload.buffer, this.payload.byteOffset + e.offset, e.length);
  }

  u8(name: string): Uint8Array {
    const e = this.entry(name, "u8");
    return new Uint8Array(this.payload.buffer, this.payload.byteOffset + e.offset, e.length);
  }
}
