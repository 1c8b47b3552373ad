import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { crc32Combine, crc32Shift } from "../../../server/api/crc32-combine.ts";

// Real bytes: ecCodes reference values (22 KB of JSON).
const bytes = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/forecast/onedeg-precip-eccodes.json"));

describe("crc32Combine", () => {
  it("gives zlib's CRC-32 of the concatenation, at every split and for empty parts", () => {
    for (const split of [0, 1, 2, 3, 7, 8, 255, 256, 4096, 12_345, bytes.byteLength - 1, bytes.byteLength]) {
      const a = bytes.subarray(0, split);
      const b = bytes.subarray(split);
      expect(crc32Combine(crc32(a), crc32(b), crc32Shift(b.byteLength)), `split at ${split}`).toBe(crc32(bytes));
    }
  });

  it("chains over many parts, and across a length over 2^32 bits", () => {
    let crc = 0;
    for (let at = 0; at < bytes.byteLength; at += 1000) {
      const part = bytes.subarray(at, at + 1000);
      crc = crc32Combine(crc, crc32(part), crc32Shift(part.byteLength));
    }
    expect(crc).toBe(crc32(bytes));
    // A part of 600 MB of zeros: the shift for it, against zlib's CRC continued over the zeros in 1 MB steps.
    const zeros = Buffer.alloc(1 << 20);
    let reference = crc32(bytes);
    for (let i = 0; i < 600; i++) reference = crc32(zeros, reference);
    const crcZeros = (() => {
      let c = 0;
      for (let i = 0; i < 600; i++) c = crc32(zeros, c);
      return c;
    })();
    expect(crc32Combine(crc32(bytes), crcZeros, crc32Shift(600 << 20))).toBe(reference);
  });
});
