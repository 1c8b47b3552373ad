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
import { ownedBytes } from "./owned-bytes.ts";

/** Bytes that repeat across answers: encoded once, deflated once on first use. */
export class Fragment {
  private deflatedCopy: Buffer | undefined;
  private checksum: { crc: number; shift: number } | undefined;
  /** The parts a joined fragment was made of (Fragment.joined), until its deflated copy is spliced from theirs. */
  private pieces: readonly BodyPart[] | undefined;

  readonly bytes: Buffer;

  constructor(bytes: Buffer) {
    this.bytes = ownedBytes(bytes);
  }

  /**
   * One fragment of consecutive parts, in order: a kept answer's parts between the pieces it
   * writes at each instant (http/caching.ts), so that a hit copies and checksums one fragment
   * where it had several. Its deflated copy is spliced from the parts' (deflated copies
   * concatenate; new bytes go in stored blocks), so joining compresses nothing again.
   */
  static joined(parts: readonly BodyPart[]): Fragment {
    const fragment = new Fragment(joinParts(parts));
    fragment.pieces = parts;
    return fragment;
  }

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
    if (this.deflatedCopy === undefined) {
      if (this.pieces !== undefined) {
        const pieces = spliceable(this.pieces);
        const out = Buffer.allocUnsafe(deflatedRoom(pieces));
        this.deflatedCopy = ownedBytes(out.subarray(0, spliceDeflated(pieces, out, 0).at));
        this.pieces = undefined;
      } else this.deflatedCopy = ownedBytes(deflateRawSync(this.bytes, { level: 6, finishFlush: zlibConstants.Z_SYNC_FLUSH }));
    }
    return this.deflatedCopy;
  }
}

/** A fragment, or bytes new to this answer (text is written as UTF-8). */
export type BodyPart = Fragment | Buffer | string;

/**
 * Text of at least this many characters is deflated when a gzip answer is spliced (once per
 * answer, or once per kept answer); shorter text goes as it is, in a stored block: deflating it
 * would cost a zlib call (11-14 µs whatever the length) to save a few hundred bytes. An identity
 * answer writes all text straight into its body.
 */
export const DEFLATED_TEXT_MIN_CHARS = 1024;

/** The parts as a gzip is spliced from them: long text as a fragment, to be deflated. */
function spliceable(parts: readonly BodyPart[]): readonly BodyPart[] {
  let out: BodyPart[] | undefined;
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k]!;
    if (typeof p === "string" && p.length >= DEFLATED_TEXT_MIN_CHARS) {
      out ??= parts.slice();
      out[k] = Fragment.of(p);
    }
  }
  return out ?? parts;
}

function byteLengthOf(p: BodyPart): number {
  return typeof p === "string" ? Buffer.byteLength(p, "utf8") : p instanceof Fragment ? p.bytes.byteLength : p.byteLength;
}

export function partsLength(parts: readonly BodyPart[]): number {
  let n = 0;
  for (const p of parts) n += byteLengthOf(p);
  return n;
}

/**
 * The body as one buffer (identity coding), text written in place. Room is reserved for the most
 * the text can take in UTF-8 (3 bytes per UTF-16 unit), so the text is not measured first.
 */
export function joinParts(parts: readonly BodyPart[]): Buffer {
  const out = Buffer.allocUnsafe(boundOf(parts, 3));
  return out.subarray(0, joinInto(out, parts));
}

/** Writes the parts into `out`; returns the bytes written. */
function joinInto(out: Buffer, parts: readonly BodyPart[]): number {
  let at = 0;
  for (const p of parts) {
    if (typeof p === "string") at += out.write(p, at, "utf8");
    else at += (p instanceof Fragment ? p.bytes : p).copy(out, at);
  }
  return at;
}

/** The most a stored block holds (LEN is 16 bits). */
const STORED_BLOCK_MAX = 0xffff;
/** Bytes before a stored block's data: BFINAL/BTYPE (byte-aligned), LEN, NLEN. */
const STORED_HEADER_BYTES = 5;
/** ID1 ID2, CM = 8 (deflate), FLG = 0, MTIME = 0 (none), XFL = 0, OS = 255 (unknown): RFC 1952 §2.3.1. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty block with BFINAL set, fixed Huffman codes: bits 1, 01, then end-of-block 0000000. */
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);
/** CRC-32 and ISIZE. */
const TRAILER_BYTES = 8;

/** Writes a stored block's header (BTYPE 00, not final) for `n` bytes at `at`; the stream is byte-aligned there. */
function storedHeader(out: Buffer, at: number, n: number): number {
  out[at] = 0x00;
  out.writeUInt16LE(n, at + 1);
  out.writeUInt16LE(~n & 0xffff, at + 3);
  return at + STORED_HEADER_BYTES;
}

/** The most the parts' raw DEFLATE (spliceDeflated) can take. */
function deflatedRoom(parts: readonly BodyPart[]): number {
  let room = 0;
  for (const p of parts) {
    if (p instanceof Fragment) room += p.bytes.byteLength === 0 ? 0 : p.deflated.byteLength;
    else {
      const most = typeof p === "string" ? 3 * p.length : p.byteLength;
      room += most + STORED_HEADER_BYTES * Math.ceil(most / STORED_BLOCK_MAX);
    }
  }
  return room;
}

/**
 * Writes the parts' raw DEFLATE at `at` (not final, byte-aligned): the fragments' deflated
 * copies, new bytes in stored blocks. Returns where it ends, the CRC-32 of the parts' bytes and
 * their length.
 */
function spliceDeflated(parts: readonly BodyPart[], out: Buffer, at: number): { at: number; crc: number; length: number } {
  let crc = 0;
  let length = 0;
  for (const p of parts) {
    if (p instanceof Fragment) {
      if (p.bytes.byteLength === 0) continue;
      const { crc: fragmentCrc, shift } = p.crc32;
      crc = crc32Combine(crc, fragmentCrc, shift);
      length += p.bytes.byteLength;
      at += p.deflated.copy(out, at);
      continue;
    }
    if (typeof p === "string" && 3 * p.length <= STORED_BLOCK_MAX) {
      // One block whatever the text's UTF-8 length: written first, its header after.
      const from = at + STORED_HEADER_BYTES;
      const n = out.write(p, from, "utf8");
      if (n === 0) continue;
      storedHeader(out, at, n);
      crc = crc32(out.subarray(from, from + n), crc);
      at = from + n;
      length += n;
      continue;
    }
    const bytes = typeof p === "string" ? Buffer.from(p, "utf8") : p;
    const n = bytes.byteLength;
    if (n === 0) continue;
    crc = crc32(bytes, crc);
    for (let k = 0; k < n; k += STORED_BLOCK_MAX) {
      const chunk = bytes.subarray(k, k + STORED_BLOCK_MAX);
      at = storedHeader(out, at, chunk.byteLength);
      at += chunk.copy(out, at);
    }
    length += n;
  }
  return { at, crc, length };
}

/**
 * The body in the gzip coding, spliced from the fragments' deflated copies (long text deflated
 * here), other new bytes in stored blocks: written into room reserved for the most it can take
 * (text at most 3 bytes per UTF-16 unit, so it is not measured first; a stored block's header is
 * filled in once its text is written), then trimmed.
 */
export function gzipParts(given: readonly BodyPart[]): Buffer {
  const parts = spliceable(given);
  const out = Buffer.allocUnsafe(GZIP_HEADER.byteLength + deflatedRoom(parts) + FINAL_EMPTY_BLOCK.byteLength + TRAILER_BYTES);
  const spliced = spliceDeflated(parts, out, GZIP_HEADER.copy(out, 0));
  let at = spliced.at + FINAL_EMPTY_BLOCK.copy(out, spliced.at);
  out.writeUInt32LE(spliced.crc >>> 0, at);
  // ISIZE is the length modulo 2^32.
  out.writeUInt32LE(spliced.length >>> 0, at + 4);
  at += TRAILER_BYTES;
  return out.subarray(0, at);
}

/**
 * Whether the parts take more than `limit` bytes: at least one byte per UTF-16 unit of text, so
 * text is measured only when the other bytes and its length are not already over.
 */
export function partsLongerThan(parts: readonly BodyPart[], limit: number): boolean {
  return boundOf(parts, 1) > limit || partsLength(parts) > limit;
}

/**
 * The parts' bytes with text counted at `bytesPerUnit` per UTF-16 unit, without encoding it: 3
 * gives the most its UTF-8 can take, 1 the least.
 */
function boundOf(parts: readonly BodyPart[], bytesPerUnit: 1 | 3): number {
  let n = 0;
  for (const p of parts) n += typeof p === "string" ? bytesPerUnit * p.length : p instanceof Fragment ? p.bytes.byteLength : p.byteLength;
  return n;
}
