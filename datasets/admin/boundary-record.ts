/**
 * A boundary record of the admin index: everything a lookup in one border slot needs except the
 * vertices, in one contiguous byte range, so that a lookup reads it at once (FORMAT.md,
 * "Boundary records"). Little-endian, a multiple of 8 bytes:
 *
 *   f64 ×6   reference lon, lat; box min lon, min lat, max lon, max lat
 *   u32 ×2   admin candidates A, timezone candidates T
 *   (A + T) × u32 ×4   feature word, first chunk, end of the inner chunks, end of the chunks
 *   K × (u32 start, u32 count, f32 ×4 box)   chunks of edges
 *
 * A chunk is up to CHUNK_EDGES consecutive edges of one feature (edge v joins vertex v to v+1)
 * with its box widened by CHUNK_MARGIN, so that float32 rounding never shrinks it. A candidate's
 * inner chunks meet the record's box; the others lie only in the box widened by the coast
 * tolerance, which the nearest-edge search needs and the parity test never does.
 */
import { DataFormatError } from "../common/errors.ts";

export const RECORD_HEAD_BYTES = 56;
const CANDIDATE_WORDS = 4;
const CHUNK_WORDS = 6;
/** The u32 word where the candidates begin. */
const CANDIDATES_AT = RECORD_HEAD_BYTES / 4;

/** In a candidate's feature word: the reference point is inside this feature. */
export const REF_INSIDE_BIT = 0x80000000;

export interface RecordChunk {
  start: number;
  count: number;
  /** min lon, min lat, max lon, max lat, widened (float32). */
  box: Float32Array;
}

export interface RecordCandidate {
  /** Feature id, with REF_INSIDE_BIT when the reference point is inside it. */
  word: number;
  inner: RecordChunk[];
  outer: RecordChunk[];
}

export interface RecordContent {
  /** Reference lon, lat; box min lon, min lat, max lon, max lat. */
  geom: ArrayLike<number>;
  admin: RecordCandidate[];
  tz: RecordCandidate[];
}

export function encodeRecord(r: RecordContent): Uint8Array {
  const candidates = [...r.admin, ...r.tz];
  const chunks = candidates.reduce((n, c) => n + c.inner.length + c.outer.length, 0);
  const bytes = new Uint8Array(RECORD_HEAD_BYTES + 4 * CANDIDATE_WORDS * candidates.length + 4 * CHUNK_WORDS * chunks);
  new Float64Array(bytes.buffer, 0, 6).set(Array.from(r.geom));
  const u32 = new Uint32Array(bytes.buffer);
  const f32 = new Float32Array(bytes.buffer);
  u32[12] = r.admin.length;
  u32[13] = r.tz.length;
  const chunkAt = CANDIDATES_AT + CANDIDATE_WORDS * candidates.length;
  let k = 0;
  candidates.forEach((c, i) => {
    const o = CANDIDATES_AT + CANDIDATE_WORDS * i;
    u32[o] = c.word;
    u32[o + 1] = k;
    u32[o + 2] = k + c.inner.length;
    for (const chunk of [...c.inner, ...c.outer]) {
      const w = chunkAt + CHUNK_WORDS * k;
      u32[w] = chunk.start;
      u32[w + 1] = chunk.count;
      f32.set(chunk.box, w + 2);
      k++;
    }
    u32[o + 3] = k;
  });
  return bytes;
}

/**
 * A record read from the file, decoded in place. Candidate i of a layer is `first(layer) + i`
 * among all candidates; chunk k's words are at `chunkWord(k)`.
 */
export class BoundaryRecord {
  readonly geom: Float64Array;
  readonly u32: Uint32Array;
  readonly f32: Float32Array;
  readonly adminCount: number;
  readonly tzCount: number;
  private readonly chunkAt: number;

  /** `bytes` must start at an 8-byte aligned address; `file` and `slot` name it in errors. */
  constructor(bytes: Uint8Array, file: string, slot: number) {
    const fail = (expected: string, got: string): never => {
      throw new DataFormatError({ file, field: `records (slot ${slot})` }, expected, got);
    };
    if (bytes.byteLength < RECORD_HEAD_BYTES || bytes.byteLength % 8 !== 0) fail(`a record of at least ${RECORD_HEAD_BYTES} bytes, a multiple of 8`, `${bytes.byteLength} bytes`);
    this.geom = new Float64Array(bytes.buffer, bytes.byteOffset, 6);
    this.u32 = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    this.f32 = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    this.adminCount = this.u32[12]!;
    this.tzCount = this.u32[13]!;
    const candidates = this.adminCount + this.tzCount;
    this.chunkAt = CANDIDATES_AT + CANDIDATE_WORDS * candidates;
    if (this.chunkAt > this.u32.length) fail(`room for ${candidates} candidates`, `${bytes.byteLength} bytes`);
    const chunks = candidates === 0 ? 0 : this.u32[CANDIDATES_AT + CANDIDATE_WORDS * (candidates - 1) + 3]!;
    const expected = RECORD_HEAD_BYTES + 4 * CANDIDATE_WORDS * candidates + 4 * CHUNK_WORDS * chunks;
    if (expected !== bytes.byteLength) fail(`${expected} bytes for ${candidates} candidates and ${chunks} chunks`, `${bytes.byteLength} bytes`);
  }

  /** Index among all candidates of the layer's first one (admin first, then timezone). */
  first(layer: "admin" | "tz"): number {
    return layer === "admin" ? 0 : this.adminCount;
  }

  count(layer: "admin" | "tz"): number {
    return layer === "admin" ? this.adminCount : this.tzCount;
  }

  /** Feature word of candidate i. */
  word(i: number): number {
    return this.u32[CANDIDATES_AT + CANDIDATE_WORDS * i]!;
  }

  firstChunk(i: number): number {
    return this.u32[CANDIDATES_AT + CANDIDATE_WORDS * i + 1]!;
  }

  innerEnd(i: number): number {
    return this.u32[CANDIDATES_AT + CANDIDATE_WORDS * i + 2]!;
  }

  chunkEnd(i: number): number {
    return this.u32[CANDIDATES_AT + CANDIDATE_WORDS * i + 3]!;
  }

  /** Word index of chunk k: start at u32[w], count at u32[w + 1], box at f32[w + 2 .. w + 5]. */
  chunkWord(k: number): number {
    return this.chunkAt + CHUNK_WORDS * k;
  }
}
