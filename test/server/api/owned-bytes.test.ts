/**
 * Kept bytes own a store of their size: a view of node's shared pool slab or of a larger buffer is
 * copied out (else one kept 1 KB value pins the whole 64 KiB slab), and bytes that already own
 * their store are returned as they are.
 */
import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ownedBytes } from "../../../server/api/owned-bytes.ts";

// A real METAR report.
const metar = "KJFK 231751Z 31012KT 10SM FEW250 08/M09 A3021 RMK AO2 SLP230 T00831089 10094 20033 58012";

describe("ownedBytes", () => {
  it("copies a view of a pool slab into a store of its own size, bytes unchanged", () => {
    const pooled = Buffer.from(metar);
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.byteLength * 8); // node's pool, not a store of its own
    const own = ownedBytes(pooled);
    expect(own.buffer.byteLength).toBe(pooled.byteLength);
    expect(own.toString("latin1")).toBe(metar);
  });
  it("copies deflateRawSync's output, a view of its output chunk", () => {
    const deflated = deflateRawSync(Buffer.from(metar.repeat(20)));
    expect(deflated.buffer.byteLength).toBeGreaterThan(4 * deflated.byteLength);
    const own = ownedBytes(deflated);
    expect(own.buffer.byteLength).toBe(deflated.byteLength);
    expect(own.equals(deflated)).toBe(true);
  });
  it("returns bytes that own their store as they are, the empty ones included", () => {
    const own = Buffer.allocUnsafeSlow(metar.length);
    own.write(metar, "latin1");
    expect(ownedBytes(own)).toBe(own);
    const empty = Buffer.alloc(0);
    expect(ownedBytes(empty).byteLength).toBe(0);
  });
});
