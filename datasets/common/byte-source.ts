/**
 * Where a reader's bytes come from (the PMTiles pattern): one small interface that every artifact
 * reader of the server reads through, so that the bytes stay where they lie and the OS page cache
 * holds the one copy that every worker and replica on the machine shares.
 *
 * - `fileSource`: positioned reads (`pread`) of an open file descriptor; each read is one system
 *   call into the page cache. The hot paths keep to a few reads a lookup.
 * - `memorySource`: bytes already in memory (tests, small files, the pipeline's own checks).
 *
 * Offsets are relative to the payload start. Reads are synchronous: a point read is a couple of
 * small, page-cached reads, cheaper than a promise round trip.
 */
import { closeSync, readSync } from "node:fs";

export interface ByteSource {
  /** Bytes [offset, offset + length) of the payload: a view of memory or a fresh buffer; fewer only past the end. */
  read(offset: number, length: number): Uint8Array;
  /**
   * Bytes [offset, offset + length) into target[0, length); returns how many (fewer only past the
   * end). What hot paths use with a scratch buffer of their own: no allocation per read.
   */
  readInto?(offset: number, length: number, target: Uint8Array): number;
  /** The whole payload, when it is held in memory: readers then decode in place, without a read per lookup. */
  whole?: Uint8Array;
  /** Releases the descriptor (a file source); a no-op for memory. */
  close?(): void;
}

/**
 * Bytes [offset, offset + length) of `source` into target[0, length): its readInto, or for a
 * source without one its read, copied. Returns how many (fewer only past the end).
 */
export function readBytesInto(source: ByteSource, offset: number, length: number, target: Uint8Array): number {
  if (source.readInto !== undefined) return source.readInto(offset, length, target);
  const bytes = source.read(offset, length);
  target.set(bytes);
  return bytes.byteLength;
}

/**
 * A reader's buffer for its reads, reused: `read` gives the bytes as a view of it, valid until the
 * next read through it. A new buffer per read costs more than the read once it is large: its pages
 * are faulted in anew each time (the 285 KB of key blocks of the names that begin with "san" take
 * 157 µs into a new buffer, 12 µs into one already touched; a loop of file reads, page cache warm).
 * The buffer grows to the largest read up to `maxBytes`, which bounds what it holds in each
 * process; a longer read gets a buffer of its own.
 */
export class ScratchReads {
  private buffer = new Uint8Array(0);

  constructor(
    private readonly source: ByteSource,
    private readonly maxBytes: number,
  ) {}

  /** Bytes [offset, offset + length) of the source (fewer only past its end). */
  read(offset: number, length: number): Uint8Array {
    if (length > this.maxBytes) return this.source.read(offset, length);
    if (this.buffer.byteLength < length) this.buffer = new Uint8Array(Math.min(this.maxBytes, Math.max(length, 2 * this.buffer.byteLength)));
    return this.buffer.subarray(0, readBytesInto(this.source, offset, length, this.buffer));
  }
}

export function memorySource(payload: Uint8Array): ByteSource {
  return {
    read: (offset, length) => payload.subarray(offset, offset + length),
    readInto(offset, length, target) {
      const bytes = payload.subarray(offset, offset + length);
      target.set(bytes);
      return bytes.byteLength;
    },
    whole: payload,
  };
}

/** Reads payload bytes from an open file descriptor; `payloadOffset` is where the payload starts in the file. */
export function fileSource(fd: number, payloadOffset: number): ByteSource {
  const readInto = (offset: number, length: number, target: Uint8Array): number => {
    let done = 0;
    while (done < length) {
      const n = readSync(fd, target, done, length - done, payloadOffset + offset + done);
      if (n === 0) break;
      done += n;
    }
    return done;
  };
  return {
    read(offset, length) {
      const buf = Buffer.allocUnsafe(length);
      const done = readInto(offset, length, buf);
      return done === length ? buf : buf.subarray(0, done);
    },
    readInto,
    close: () => closeSync(fd),
  };
}
