/**
 * Postings as read from the places index (FORMAT.md, section `postings`): the accessors of a view
 * of POSTING_BYTES records through typed arrays (the index is little-endian, as are the hosts
 * Node.js runs on; bytes that are not 4-aligned are copied first).
 */
import { POSTING_BYTES } from "./index-format.ts";

/** Postings as read: a view of POSTING_BYTES records. */
export class Postings {
  readonly count: number;
  private readonly u32: Uint32Array;
  private readonly f32: Float32Array;
  private readonly u16: Uint16Array;

  constructor(bytes: Uint8Array) {
    this.count = Math.floor(bytes.byteLength / POSTING_BYTES);
    const b = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
    this.u32 = new Uint32Array(b.buffer, b.byteOffset, this.count * 4);
    this.f32 = new Float32Array(b.buffer, b.byteOffset, this.count * 4);
    this.u16 = new Uint16Array(b.buffer, b.byteOffset, this.count * 8);
  }

  posting(i: number): number {
    return this.u32[4 * i]!;
  }

  /** log10(population + 1) - feature malus, as float32. */
  base(i: number): number {
    return this.f32[4 * i + 1]!;
  }

  country(i: number): number {
    return this.u16[8 * i + 4]!;
  }

  admin1(i: number): number {
    return this.u16[8 * i + 5]!;
  }

  feature(i: number): number {
    return this.u16[8 * i + 6]!;
  }

  flags(i: number): number {
    return this.u16[8 * i + 7]!;
  }
}
