/**
 * An append-only section of the places index written to a temporary file through a 1 MiB
 * buffer, so that the index of a 13-million-place dump is never held in memory.
 */
import { closeSync, openSync, readSync, writeSync } from "node:fs";

const BUFFER_BYTES = 1 << 20;

export class SectionSpool {
  private readonly fd: number;
  private readonly buf = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;
  /** Bytes appended so far. */
  length = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, "w+");
  }

  private room(n: number): void {
    if (this.used + n > BUFFER_BYTES) this.flush();
  }

  u8(v: number): void {
    this.room(1);
    this.buf[this.used++] = v;
    this.length += 1;
  }

  u16(v: number): void {
    this.room(2);
    this.buf.writeUInt16LE(v, this.used);
    this.used += 2;
    this.length += 2;
  }

  u32(v: number): void {
    this.room(4);
    this.buf.writeUInt32LE(v >>> 0, this.used);
    this.used += 4;
    this.length += 4;
  }

  i32(v: number): void {
    this.room(4);
    this.buf.writeInt32LE(v, this.used);
    this.used += 4;
    this.length += 4;
  }

  f32(v: number): void {
    this.room(4);
    this.buf.writeFloatLE(v, this.used);
    this.used += 4;
    this.length += 4;
  }

  bytes(b: Uint8Array): void {
    if (b.byteLength > BUFFER_BYTES) {
      this.flush();
      writeSync(this.fd, b);
    } else {
      this.room(b.byteLength);
      this.buf.set(b, this.used);
      this.used += b.byteLength;
    }
    this.length += b.byteLength;
  }

  flush(): void {
    if (this.used > 0) writeSync(this.fd, this.buf, 0, this.used);
    this.used = 0;
  }

  /** Calls `visit` with the section's bytes in order (chunks valid only during the call). */
  forEachChunk(visit: (chunk: Uint8Array) => void): void {
    this.flush();
    const chunk = Buffer.allocUnsafe(8 << 20);
    let position = 0;
    while (position < this.length) {
      const n = readSync(this.fd, chunk, 0, Math.min(chunk.byteLength, this.length - position), position);
      if (n === 0) break;
      visit(chunk.subarray(0, n));
      position += n;
    }
  }

  close(): void {
    closeSync(this.fd);
  }
}
