/**
 * Named typed-array sections of a payload: each section starts at a multiple of 8 bytes so that
 * a reader takes typed views of what it reads (Float64Array needs 8-byte alignment). The table of
 * contents (name, element type, byte offset, element count) travels in the envelope's metadata.
 */
import type { ByteSource } from "../common/byte-source.ts";
import { DataFormatError } from "../common/errors.ts";

export type SectionType = "f64" | "f32" | "u32" | "i32" | "u8";

export interface SectionEntry {
  name: string;
  type: SectionType;
  /** Byte offset inside the payload (multiple of 8). */
  offset: number;
  /** Number of elements. */
  length: number;
}

export type SectionArray = Float64Array | Float32Array | Uint32Array | Int32Array | Uint8Array;

export const SECTION_BYTES: Record<SectionType, number> = { f64: 8, f32: 4, u32: 4, i32: 4, u8: 1 };

function typeOf(a: SectionArray): SectionType {
  if (a instanceof Float64Array) return "f64";
  if (a instanceof Float32Array) return "f32";
  if (a instanceof Uint32Array) return "u32";
  if (a instanceof Int32Array) return "i32";
  return "u8";
}

/**
 * Lays out sections in the given order; returns the payload chunks and the table of contents. A
 * u8 section may be given as the list of its pieces, written one after the other without being
 * joined first (the stations' answers: hundreds of MB at full size).
 */
export function encodeSections(sections: readonly (readonly [string, SectionArray | readonly Uint8Array[]])[]): { chunks: Uint8Array[]; toc: SectionEntry[] } {
  const chunks: Uint8Array[] = [];
  const toc: SectionEntry[] = [];
  let offset = 0;
  for (const [name, array] of sections) {
    const typed = ArrayBuffer.isView(array) ? array : undefined;
    const pieces = typed ? [new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength)] : (array as readonly Uint8Array[]);
    let bytes = 0;
    // Empty pieces take no chunk: a zero-length write is a needless edge case.
    for (const piece of pieces) {
      if (piece.byteLength > 0) chunks.push(piece);
      bytes += piece.byteLength;
    }
    toc.push({ name, type: typed ? typeOf(typed) : "u8", offset, length: typed ? typed.length : bytes });
    offset += bytes;
    const pad = (8 - (offset % 8)) % 8;
    if (pad > 0) {
      chunks.push(new Uint8Array(pad));
      offset += pad;
    }
  }
  return { chunks, toc };
}

/**
 * Bytes [offset, offset + length) of the source, starting at an 8-byte aligned address (a copy
 * only when the source's bytes are not); a short read is a truncated file.
 */
export function readAligned(source: ByteSource, offset: number, length: number, file: string, field: string): Uint8Array {
  const bytes = source.read(offset, length);
  if (bytes.byteLength !== length) {
    throw new DataFormatError({ file, field, offset }, `${length} bytes`, `${bytes.byteLength} (truncated file)`);
  }
  return bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes);
}

export function f64s(bytes: Uint8Array): Float64Array {
  return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
}

export function f32s(bytes: Uint8Array): Float32Array {
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

export function u32s(bytes: Uint8Array): Uint32Array {
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

/** The table of contents checked against the payload's size; whole sections read on demand. */
export class SectionTable {
  private readonly byName = new Map<string, SectionEntry>();

  constructor(
    private readonly source: ByteSource,
    toc: readonly SectionEntry[],
    private readonly payloadBytes: number,
    readonly file: string,
  ) {
    for (const e of toc) this.byName.set(e.name, e);
  }

  /** A section's entry, checked: present, of the type, aligned and within the payload. */
  entry(name: string, type: SectionType): SectionEntry {
    const e = this.byName.get(name);
    if (!e) throw new DataFormatError({ file: this.file, field: name }, `a section '${name}'`, "none in the table of contents");
    if (e.type !== type) throw new DataFormatError({ file: this.file, field: name }, `section type ${type}`, e.type);
    const end = e.offset + e.length * SECTION_BYTES[type];
    if (!Number.isSafeInteger(end) || e.offset < 0 || e.offset % 8 !== 0 || end > this.payloadBytes) {
      throw new DataFormatError({ file: this.file, field: name, offset: e.offset }, `an aligned section within ${this.payloadBytes} payload bytes`, `offset ${e.offset}, end ${end}`);
    }
    return e;
  }

  private bytes(name: string, type: SectionType): Uint8Array {
    const e = this.entry(name, type);
    return readAligned(this.source, e.offset, e.length * SECTION_BYTES[type], this.file, name);
  }

  f64(name: string): Float64Array {
    return f64s(this.bytes(name, "f64"));
  }

  f32(name: string): Float32Array {
    return f32s(this.bytes(name, "f32"));
  }

  u32(name: string): Uint32Array {
    return u32s(this.bytes(name, "u32"));
  }

  i32(name: string): Int32Array {
    const b = this.bytes(name, "i32");
    return new Int32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  }

  u8(name: string): Uint8Array {
    return this.bytes(name, "u8");
  }
}
