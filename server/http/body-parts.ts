/**
 * A body assembled from parts: fragments that repeat across answers (an area's member of the
 * administrative description, a place's forecast sections) and text that is new for each request
 * (the timezone member, which carries the instant).
 *
 * Why: an answer that carries the instant cannot be cached whole, and compressing 2-6 KB for each
 * request cost 10-45 µs (brotli quality 1), a third of such a request's CPU. Raw DEFLATE streams
 * concatenate (RFC 1951 §3.2.3: a stream is a sequence of blocks; only the last sets BFINAL), so
 * each fragment is deflated once, ending on a byte boundary with a sync flush and without BFINAL,
 * and a gzip answer is spliced from those copies, the new text as stored (uncompressed) blocks, an
 * empty final block, and the gzip trailer (RFC 1952 §2.3: CRC-32 and length of the whole; each
 * fragment's CRC is kept and combined, crc32-combine.ts).
 * Storing the new text costs its 200-400 bytes uncompressed; compressing it would cost a zlib call
 * (11-14 µs, mostly setting up the stream, whatever the length).
 */
import { constants as zlibConstants, crc32, deflateRawSync } from "node:zlib";
import { crc32Combine, crc32Shift } from "./crc32-combine.ts";

/** Bytes that repeat across answers: encoded once, deflated once on first use. */
export class Fragment {
  private deflatedCopy: Buffer | undefined;
  private checksum: { crc: number; shift: number } | undefined;

  constructor(readonly bytes: Buffer) {}

  /** CRC-32 of the bytes and the operator that appends them (crc32-combine.ts), computed once. */
  get crc32(): { crc: number; shift: number } {
    this.checksum ??= { crc: crc32(this.bytes), shift: crc32Shift(this.bytes.byteLength) };
    return this.checksum;
  }

  static of(text: string): Fragment {
    return new Fragment(Buffer.from(text, "utf8"));
  }

  /**
   * Raw DEFLATE of the bytes, sync-flushed (ends byte-aligned, not final). Level 6: on a 17 KB
   * forecast part it took 43 µs for 1,178 bytes, level 1 as long for 1,486, level 9 77 µs for 1,124.
   */
  get deflated(): Buffer {
    this.deflatedCopy ??= deflateRawSync(this.bytes, { level: 6, finishFlush: zlibConstants.Z_SYNC_FLUSH });
    return this.deflatedCopy;
  }
}

/** A fragment, or bytes new to this answer (text is UTF-8 encoded). */
export type BodyPart = Fragment | Buffer | string;

/** The parts with text encoded: what the two encoders below take. */
export function encodeParts(parts: readonly BodyPart[]): (Fragment | Buffer)[] {
  return parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : p));
}

export function partsLength(parts: readonly (Fragment | Buffer)[]): number {
  let n = 0;
  for (const p of parts) n += p instanceof Fragment ? p.bytes.byteLength : p.byteLength;
  return n;
}

/** The body as one buffer (identity coding). */
export function joinParts(parts: readonly (Fragment | Buffer)[]): Buffer {
  return Buffer.concat(parts.map((p) => (p instanceof Fragment ? p.bytes : p)));
}

/** The most a stored block holds (LEN is 16 bits). */
const STORED_BLOCK_MAX = 0xffff;
/** ID1 ID2, CM = 8 (deflate), FLG = 0, MTIME = 0 (none), XFL = 0, OS = 255 (unknown): RFC 1952 §2.3.1. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty block with BFINAL set, fixed Huffman codes: bits 1, 01, then end-of-block 0000000. */
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);

/** Stored blocks (BTYPE 00, not final) holding `bytes`; the stream must be byte-aligned before them. */
function storedBlocks(bytes: Buffer, out: Buffer[]): void {
  for (let at = 0; at < bytes.byteLength; at += STORED_BLOCK_MAX) {
    const chunk = bytes.subarray(at, at + STORED_BLOCK_MAX);
    const n = chunk.byteLength;
    out.push(Buffer.from([0x00, n & 0xff, n >>> 8, ~n & 0xff, (~n >>> 8) & 0xff]), chunk);
  }
}

/** The body in the gzip coding, spliced from the fragments' deflated copies. */
export function gzipParts(parts: readonly (Fragment | Buffer)[]): Buffer {
  const out: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let length = 0;
  for (const p of parts) {
    if (p instanceof Fragment) {
      if (p.bytes.byteLength === 0) continue;
      const { crc: fragmentCrc, shift } = p.crc32;
      crc = crc32Combine(crc, fragmentCrc, shift);
      length += p.bytes.byteLength;
      out.push(p.deflated);
    } else if (p.byteLength > 0) {
      crc = crc32(p, crc);
      length += p.byteLength;
      storedBlocks(p, out);
    }
  }
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  // ISIZE is the length modulo 2^32.
  trailer.writeUInt32LE(length >>> 0, 4);
  out.push(FINAL_EMPTY_BLOCK, trailer);
  return Buffer.concat(out);
}
