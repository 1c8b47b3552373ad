/**
 * The payload of a zlib stream (RFC 1950) that holds one final *stored* DEFLATE block (RFC 1951
 * section 3.2.4: the bytes as they are, behind a 5-byte header), checked against the stream's
 * Adler-32. That is what zlib writes at level 0 for a small payload, and what the DEM writer
 * stores its tiles as: a lookup then reads a tile and checks it without inflating (zlib's per-call
 * set-up costs 10-25 µs even for a tiny block).
 *
 * Byte layout: CMF, FLG (2 bytes); the block header (1 byte: BFINAL = 1, BTYPE = 00, five unused
 * bits); LEN and NLEN = ~LEN (2 bytes each, little-endian); LEN bytes; Adler-32 (4 bytes,
 * big-endian). Any other stream (compressed blocks, several blocks, a preset dictionary) gives
 * `undefined`, for the caller to inflate.
 */
import { adler32 } from "./adler32.ts";

/** Bytes before a stored stream's payload: CMF, FLG, the block header, LEN, NLEN. */
export const STORED_ZLIB_LEAD = 7;
/** What a stored stream adds to its payload: the lead and the Adler-32. */
export const STORED_ZLIB_OVERHEAD = STORED_ZLIB_LEAD + 4;

/** A stored stream whose lengths or checksum do not hold: what was expected and what was found. */
export class StoredStreamError extends Error {
  override readonly name = "StoredStreamError";
  constructor(readonly expected: string, readonly got: string) {
    super(`expected ${expected}, got ${got}`);
  }
}

/** Bytes a stored block holds at most (LEN is 16 bits). */
export const STORED_BLOCK_MAX = 65_535;

/**
 * The zlib stream of `payload` as one final stored block (CMF 0x78, FLG 0x01): byte for byte what
 * zlib's deflate writes at level 0 for a payload it keeps in one block (65,000 bytes do; 65,535
 * it splits in two), made here without a zlib stream object per call.
 */
export function storedZlibStream(payload: Uint8Array): Uint8Array {
  const len = payload.byteLength;
  if (len > STORED_BLOCK_MAX) throw new RangeError(`a stored block holds at most ${STORED_BLOCK_MAX} bytes, got ${len}`);
  const out = new Uint8Array(STORED_ZLIB_OVERHEAD + len);
  out.set([0x78, 0x01, 0x01, len & 0xff, len >>> 8, ~len & 0xff, (~len >>> 8) & 0xff]);
  out.set(payload, STORED_ZLIB_LEAD);
  new DataView(out.buffer).setUint32(STORED_ZLIB_LEAD + len, adler32(payload), false);
  return out;
}

/** The checked payload (a view of `stream`), or undefined when `stream` is not one stored block. */
export function storedZlibPayload(stream: Uint8Array): Uint8Array | undefined {
  if (stream.length < STORED_ZLIB_OVERHEAD) return undefined;
  const cmf = stream[0]!;
  const flg = stream[1]!;
  // CM 8 (deflate), a valid FCHECK, no preset dictionary; then BFINAL 1 and BTYPE 00.
  if ((cmf & 0x0f) !== 8 || ((cmf << 8) | flg) % 31 !== 0 || (flg & 0x20) !== 0 || (stream[2]! & 0x07) !== 0x01) return undefined;
  const len = stream[3]! | (stream[4]! << 8);
  const nlen = stream[5]! | (stream[6]! << 8);
  if ((len ^ 0xffff) !== nlen) throw new StoredStreamError(`NLEN = ~LEN (${len ^ 0xffff})`, `${nlen}`);
  if (stream.length !== STORED_ZLIB_OVERHEAD + len) throw new StoredStreamError(`a stream of ${STORED_ZLIB_OVERHEAD + len} bytes (LEN ${len})`, `${stream.length}`);
  const payload = stream.subarray(STORED_ZLIB_LEAD, STORED_ZLIB_LEAD + len);
  const at = STORED_ZLIB_LEAD + len;
  const stated = ((stream[at]! << 24) | (stream[at + 1]! << 16) | (stream[at + 2]! << 8) | stream[at + 3]!) >>> 0;
  const computed = adler32(payload);
  if (stated !== computed) throw new StoredStreamError(`the Adler-32 the stream states (${stated.toString(16).padStart(8, "0")})`, `${computed.toString(16).padStart(8, "0")} over its payload`);
  return payload;
}
