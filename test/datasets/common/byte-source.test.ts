/**
 * readBytesInto: the same bytes into a caller's buffer from a file source (its readInto), a memory
 * source, and a source that only reads (its read, copied); fewer past the end. ScratchReads: the
 * file's bytes as views of one reused buffer up to its bound, a buffer of their own beyond it.
 */
import { openSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { fileSource, memorySource, readBytesInto, ScratchReads, type ByteSource } from "../../../datasets/common/byte-source.ts";

const FILE = fileURLToPath(new URL("../../../datasets/embedded/geonames/countryInfo.txt.gz", import.meta.url));

describe("readBytesInto", () => {
  const whole = readFileSync(FILE);
  const file = fileSource(openSync(FILE, "r"), 0);
  afterAll(() => file.close?.());
  const sources: [string, ByteSource][] = [
    ["file", file],
    ["memory", memorySource(whole)],
    ["read only", { read: (offset, length) => whole.subarray(offset, offset + length) }],
  ];

  it.each(sources)("reads a range into the target from a %s source", (_name, source) => {
    const target = new Uint8Array(64).fill(0xee);
    expect(readBytesInto(source, 100, 40, target)).toBe(40);
    expect(Buffer.from(target.subarray(0, 40)).equals(whole.subarray(100, 140))).toBe(true);
    expect(target[40]).toBe(0xee);
  });

  it.each(sources)("gives fewer bytes past the end of a %s source", (_name, source) => {
    const target = new Uint8Array(64);
    expect(readBytesInto(source, whole.byteLength - 10, 40, target)).toBe(10);
    expect(Buffer.from(target.subarray(0, 10)).equals(whole.subarray(whole.byteLength - 10))).toBe(true);
    expect(readBytesInto(source, whole.byteLength, 8, target)).toBe(0);
  });
});

describe("ScratchReads", () => {
  const whole = readFileSync(FILE);
  const file = fileSource(openSync(FILE, "r"), 0);
  afterAll(() => file.close?.());

  it("gives the source's bytes, each read a view of the same buffer, grown to the largest read", () => {
    const reads = new ScratchReads(file, 1024);
    const first = reads.read(500, 300);
    expect(Buffer.from(first).equals(whole.subarray(500, 800))).toBe(true);
    const second = reads.read(10, 100);
    expect(Buffer.from(second).equals(whole.subarray(10, 110))).toBe(true);
    expect(second.buffer).toBe(first.buffer);
    // The first view now shows the second read where they overlap: valid until the next read, as documented.
    expect(Buffer.from(first.subarray(0, 100)).equals(whole.subarray(10, 110))).toBe(true);
    // A longer read grows the buffer (doubled, at least to the read's length).
    const third = reads.read(0, 500);
    expect(Buffer.from(third).equals(whole.subarray(0, 500))).toBe(true);
    expect(third.buffer).not.toBe(first.buffer);
    expect(third.buffer.byteLength).toBe(600);
  });

  it("gives a read longer than its bound a buffer of its own, kept by later reads", () => {
    const reads = new ScratchReads(file, 256);
    const long = reads.read(0, 1000);
    expect(Buffer.from(long).equals(whole.subarray(0, 1000))).toBe(true);
    const short = reads.read(2000, 200);
    expect(short.buffer).not.toBe(long.buffer);
    expect(Buffer.from(long).equals(whole.subarray(0, 1000))).toBe(true);
    expect(Buffer.from(short).equals(whole.subarray(2000, 2200))).toBe(true);
  });

  it("never grows past its bound", () => {
    const reads = new ScratchReads(file, 256);
    reads.read(0, 200);
    expect(reads.read(0, 256).buffer.byteLength).toBe(256);
  });

  it("gives fewer bytes past the end of the source, and none at it", () => {
    const reads = new ScratchReads(memorySource(whole), 1024);
    expect(Buffer.from(reads.read(whole.byteLength - 10, 40)).equals(whole.subarray(whole.byteLength - 10))).toBe(true);
    expect(reads.read(whole.byteLength, 8).byteLength).toBe(0);
  });
});
