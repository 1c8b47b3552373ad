/**
 * A sorted key table read where it lies: keys in strictly ascending byte order, each with two u32
 * values, cut into blocks of KEYS_PER_BLOCK keys. A small directory (every block's byte start and
 * first key) stays in memory; a lookup binary-searches it and reads the blocks it needs in one
 * positioned read, which returns the keys and their values together. Bytes: FORMAT.md ("Key
 * tables").
 */
import { ScratchReads, type ByteSource } from "../common/byte-source.ts";
import { DataFormatError } from "../common/errors.ts";

/** Three-way comparison of `a` with bytes[start, end) (unsigned bytes, then length). */
export function compareBytes(a: Uint8Array, bytes: Uint8Array, start: number, end: number): number {
  const n = Math.min(a.length, end - start);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - bytes[start + i]!;
    if (d !== 0) return d;
  }
  return a.length - (end - start);
}

/** Keys per block: a block of place keys is about 800 bytes, the directory 1/32 of the keys. */
export const KEYS_PER_BLOCK = 32;

/**
 * The most a reused read buffer of the places index holds (common/byte-source.ts ScratchReads; a
 * key table's, the postings'): a longer read gets a buffer of its own. Bounds what they keep in
 * each process to a few MiB; the embedded default's longest reads are about 300 KB.
 */
export const SCRATCH_MAX_BYTES = 1 << 20;

/** Builds a table's two sections: the blocks and the directory. Keys must come in ascending byte order. */
export class KeyTableWriter {
  private readonly firstKeys: Uint8Array[] = [];
  private readonly blockStarts: number[] = [0];
  private keys: Uint8Array[] = [];
  private values: number[] = [];
  private last: Uint8Array | undefined;
  count = 0;

  /** `out` receives the blocks section's bytes in order. */
  constructor(private readonly out: (bytes: Uint8Array) => void) {}

  add(key: Uint8Array, value0: number, value1: number, field: string): void {
    if (this.last !== undefined && compareBytes(key, this.last, 0, this.last.length) <= 0) {
      throw new DataFormatError({ field }, "keys in strictly ascending byte order", `${JSON.stringify(Buffer.from(key).toString("utf8"))} after a key not smaller`);
    }
    this.last = key;
    if (this.keys.length === 0) this.firstKeys.push(key);
    this.keys.push(key);
    this.values.push(value0 >>> 0, value1 >>> 0);
    this.count++;
    if (this.keys.length === KEYS_PER_BLOCK) this.flush();
  }

  private flush(): void {
    const c = this.keys.length;
    if (c === 0) return;
    const keyBytes = this.keys.reduce((n, k) => n + k.byteLength, 0);
    const block = Buffer.alloc(4 + 4 * c + 8 * c + keyBytes);
    block.writeUInt32LE(c, 0);
    let end = 0;
    let at = 4 + 12 * c;
    this.keys.forEach((k, i) => {
      end += k.byteLength;
      block.writeUInt32LE(end, 4 + 4 * i);
      block.writeUInt32LE(this.values[2 * i]!, 4 + 4 * c + 8 * i);
      block.writeUInt32LE(this.values[2 * i + 1]!, 8 + 4 * c + 8 * i);
      block.set(k, at);
      at += k.byteLength;
    });
    this.out(block);
    this.blockStarts.push(this.blockStarts[this.blockStarts.length - 1]! + block.byteLength);
    this.keys = [];
    this.values = [];
  }

  /** Ends the blocks; returns the directory section: u32 B, u32 nb, u32 starts[nb + 1], u32 firstKeyEnds[nb], first keys. */
  finish(): Uint8Array {
    this.flush();
    const nb = this.firstKeys.length;
    const bytes = this.firstKeys.reduce((n, k) => n + k.byteLength, 0);
    const dir = Buffer.alloc(8 + 4 * (nb + 1) + 4 * nb + bytes);
    dir.writeUInt32LE(KEYS_PER_BLOCK, 0);
    dir.writeUInt32LE(nb, 4);
    this.blockStarts.forEach((s, i) => dir.writeUInt32LE(s, 8 + 4 * i));
    let end = 0;
    let at = 8 + 4 * (nb + 1) + 4 * nb;
    this.firstKeys.forEach((k, i) => {
      end += k.byteLength;
      dir.writeUInt32LE(end, 8 + 4 * (nb + 1) + 4 * i);
      dir.set(k, at);
      at += k.byteLength;
    });
    return dir;
  }
}

/**
 * Keys read from blocks: key i is bytes[keyStart[i], keyEnd[i]) with values value0[i], value1[i].
 * `bytes` is a view of the table's read buffer, valid until the table's next range or find.
 */
export interface KeyRun {
  count: number;
  bytes: Uint8Array;
  keyStart: number[];
  keyEnd: number[];
  value0: number[];
  value1: number[];
}

export class KeyTable {
  private readonly blockStarts: Uint32Array;
  private readonly firstEnds: Uint32Array;
  private readonly firstBytes: Uint8Array;
  private readonly blocks: number;
  private readonly perBlock: number;
  private readonly reads: ScratchReads;

  /** `directory` is the directory section (kept); the blocks section lies at `blocksAt` (`blocksBytes` long) in the source. */
  constructor(
    source: ByteSource,
    held: Uint8Array,
    private readonly blocksAt: number,
    blocksBytes: number,
    private readonly file: string,
    private readonly field: string,
  ) {
    const fail = (expected: string, got: string | number): never => {
      throw new DataFormatError({ file, field }, expected, String(got));
    };
    // Kept for the table's life: its own copy, 4-aligned for the typed views.
    const directory = new Uint8Array(held);
    if (directory.byteLength < 8) fail("a key table directory of 8+ bytes", directory.byteLength);
    const dv = new DataView(directory.buffer, directory.byteOffset, directory.byteLength);
    this.reads = new ScratchReads(source, SCRATCH_MAX_BYTES);
    this.perBlock = dv.getUint32(0, true);
    this.blocks = dv.getUint32(4, true);
    const nb = this.blocks;
    const head = 8 + 4 * (nb + 1) + 4 * nb;
    if (this.perBlock < 1 || nb > directory.byteLength || head > directory.byteLength) fail(`a directory of ${head} bytes or more`, `${directory.byteLength} bytes for ${nb} blocks`);
    this.blockStarts = new Uint32Array(directory.buffer, directory.byteOffset + 8, nb + 1);
    this.firstEnds = new Uint32Array(directory.buffer, directory.byteOffset + 8 + 4 * (nb + 1), nb);
    this.firstBytes = directory.subarray(head);
    if (this.blockStarts[nb] !== blocksBytes) fail(`blocks ending at ${blocksBytes} bytes`, this.blockStarts[nb]!);
    if (nb > 0 && this.firstEnds[nb - 1] !== this.firstBytes.byteLength) fail(`first keys of ${this.firstBytes.byteLength} bytes`, this.firstEnds[nb - 1]!);
  }

  /** The last block whose first key is <= `key` (`strict`: < `key`), or 0. */
  private blockOf(key: Uint8Array, strict: boolean): number {
    let lo = 0;
    let hi = this.blocks;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = compareBytes(key, this.firstBytes, mid === 0 ? 0 : this.firstEnds[mid - 1]!, this.firstEnds[mid]!);
      if (c > 0 || (c === 0 && !strict)) lo = mid + 1;
      else hi = mid;
    }
    return Math.max(0, lo - 1);
  }

  /**
   * The keys in [low, high) in order, with their values: one read of the blocks that hold them.
   * `maxBlocks` caps the blocks read (a scan that stops after a number of keys). The run's bytes
   * are valid until this table's next range or find.
   */
  range(low: Uint8Array, high: Uint8Array, maxBlocks = Infinity): KeyRun {
    const run: KeyRun = { count: 0, bytes: new Uint8Array(0), keyStart: [], keyEnd: [], value0: [], value1: [] };
    if (this.blocks === 0) return run;
    const first = this.blockOf(low, false);
    const last = Math.min(this.blockOf(high, true), first + maxBlocks - 1);
    if (last < first) return run;
    const start = this.blockStarts[first]!;
    const length = this.blockStarts[last + 1]! - start;
    const bytes = this.reads.read(this.blocksAt + start, length);
    if (bytes.byteLength !== length) throw new DataFormatError({ file: this.file, field: this.field, offset: this.blocksAt + start }, `${length} bytes of key blocks`, `${bytes.byteLength} (truncated file)`);
    run.bytes = bytes;
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // Keys ascend: once one is >= low, all after it are; only the last block holds keys >= high
    // (the blocks before it end below its first key, which is below high).
    let aboveLow = false;
    for (let b = first; b <= last; b++) {
      const at = this.blockStarts[b]! - start;
      const end = this.blockStarts[b + 1]! - start;
      const c = end - at >= 4 ? dv.getUint32(at, true) : 0;
      const keysAt = at + 4 + 12 * c;
      if (c < 1 || c > this.perBlock || keysAt > end) throw new DataFormatError({ file: this.file, field: `${this.field} block ${b}` }, `1 to ${this.perBlock} keys within ${end - at} bytes`, `${c} keys`);
      let keyStart = keysAt;
      for (let i = 0; i < c; i++) {
        const keyEnd = keysAt + dv.getUint32(at + 4 + 4 * i, true);
        if (keyEnd < keyStart || keyEnd > end) throw new DataFormatError({ file: this.file, field: `${this.field} block ${b}` }, "key ends in order within the block", `${keyEnd - keysAt} after ${keyStart - keysAt}`);
        if (!aboveLow) aboveLow = compareBytes(low, bytes, keyStart, keyEnd) <= 0;
        if (aboveLow && (b < last || compareBytes(high, bytes, keyStart, keyEnd) > 0)) {
          run.keyStart.push(keyStart);
          run.keyEnd.push(keyEnd);
          run.value0.push(dv.getUint32(at + 4 + 4 * c + 8 * i, true));
          run.value1.push(dv.getUint32(at + 8 + 4 * c + 8 * i, true));
          run.count++;
        }
        keyStart = keyEnd;
      }
    }
    return run;
  }

  /** The values of the key equal to `key`, or undefined. */
  find(key: Uint8Array): [number, number] | undefined {
    const run = this.range(key, successor(key));
    return run.count === 1 ? [run.value0[0]!, run.value1[0]!] : undefined;
  }
}

/** The smallest byte string above `key` (keys hold no 0x00 byte after it: folded text). */
export function successor(key: Uint8Array): Uint8Array {
  const s = new Uint8Array(key.length + 1);
  s.set(key);
  return s;
}

/** The byte string above every key that starts with `prefix` (UTF-8 never holds 0xFF). */
export function prefixEnd(prefix: Uint8Array): Uint8Array {
  const s = new Uint8Array(prefix.length + 1);
  s.set(prefix);
  s[prefix.length] = 0xff;
  return s;
}
