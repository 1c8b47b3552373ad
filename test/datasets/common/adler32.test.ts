import { readFileSync } from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { adler32 } from "../../../datasets/common/adler32.ts";
import { EMBEDDED_DIR } from "../../../datasets/common/paths.ts";

/** The Adler-32 zlib writes at the end of a stream (big-endian), the outside reference. */
const zlibAdler = (bytes: Uint8Array): number => deflateSync(bytes, { level: 1 }).readUInt32BE(deflateSync(bytes, { level: 1 }).length - 4);

describe("adler32", () => {
  it("gives the published example and an empty input's 1", () => {
    // The worked example of the Adler-32 article: "Wikipedia" sums to 0x11E60398.
    expect(adler32(new TextEncoder().encode("Wikipedia"))).toBe(0x11e60398);
    expect(adler32(new Uint8Array(0))).toBe(1);
  });

  it("agrees with zlib on real bytes of every length around its reduction points, and on 0xff runs", () => {
    const real = readFileSync(path.join(EMBEDDED_DIR, "dem/etopo5.tif")).subarray(0, 70_000);
    for (const n of [1, 2, 3799, 3800, 3801, 5552, 5553, 7600, 8192, 65_535, 70_000]) expect(adler32(real.subarray(0, n))).toBe(zlibAdler(real.subarray(0, n)));
    // All 0xff bytes push both sums to their largest between reductions.
    const ones = new Uint8Array(100_000).fill(0xff);
    expect(adler32(ones)).toBe(zlibAdler(ones));
  });
});
