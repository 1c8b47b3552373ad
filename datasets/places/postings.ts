/**
 * Postings as read from the places index (FORMAT.md, section `postings`): the accessors of a view
 * of POSTING_BYTES records, whatever the alignment of the bytes read.
 */
import { POSTING_BYTES } from "./index-format.ts";

/** Postings as read: a view of POSTING_BYTES records. */
export class Postings {
  readonly count: number;
  private readonly dv: DataView;

  constructor(bytes: Uint8Array) {
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.count = Math.floor(bytes.byteLength / POSTING_BYTES);
  }

  posting(i: number): number {
    return this.dv.getUint32(i * POSTING_BYTES, true);
  }

  /** log10(population + 1) - feature malus, as float32. */
  base(i: number): number {
    return this.dv.getFloat32(i * POSTING_BYTES + 4, true);
  }

  country(i: number): number {
    return this.dv.getUint16(i * POSTING_BYTES + 8, true);
  }

  admin1(i: number): number {
    return this.dv.getUint16(i * POSTING_BYTES + 10, true);
  }

  feature(i: number): number {
    return this.dv.getUint16(i * POSTING_BYTES + 12, true);
  }

  flags(i: number): number {
    return this.dv.getUint16(i * POSTING_BYTES + 14, true);
  }
}
