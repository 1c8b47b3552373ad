/**
 * readBytesInto: the same bytes into a caller's buffer from a file source (its readInto), a memory
 * source, and a source that only reads (its read, copied); fewer past the end.
 */
import { openSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { fileSource, memorySource, readBytesInto, type ByteSource } from "../../../datasets/common/byte-source.ts";

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
