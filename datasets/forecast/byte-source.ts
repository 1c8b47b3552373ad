/**
 * Where a reader's bytes come from (the PMTiles pattern): the whole file in memory, or a file
 * descriptor read with positioned reads for files too large to hold. Offsets are relative to the
 * payload start. Reads are synchronous: a point read is a couple of small, page-cached reads.
 */
import { closeSync, readSync } from "node:fs";

export interface ByteSource {
  read(offset: number, length: number): Uint8Array;
  /** The whole payload, when it is held in memory: readers then decode in place, without a read per series. */
  whole?: Uint8Array;
  close?(): void;
}

export function memorySource(payload: Uint8Array): ByteSource {
  return { read: (offset, length) => payload.subarray(offset, offset + length), whole: payload };
}

/** Reads payload bytes from an open file descriptor; `payloadOffset` is where the payload starts in the file. */
export function fileSource(fd: number, payloadOffset: number): ByteSource {
  return {
    read(offset, length) {
      const buf = Buffer.allocUnsafe(length);
      let done = 0;
      while (done < length) {
        const n = readSync(fd, buf, done, length - done, payloadOffset + offset + done);
        if (n === 0) break;
        done += n;
      }
      return done === length ? buf : buf.subarray(0, done);
    },
    close: () => closeSync(fd),
  };
}
