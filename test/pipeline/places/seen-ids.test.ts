/**
 * SeenIds: a paged bitmap over the whole uint32 id range. The ids are GeoNames ids (Berlin
 * 2950159, Hamburg 2911298) and the same ids shifted as the scale generator shifts its copies
 * (+ k x 20,000,000, up to 1.26 billion), where the former Set-based store held one entry per id.
 */
import { describe, expect, it } from "vitest";
import { SeenIds } from "../../../pipeline/places/seen-ids.ts";

describe("SeenIds", () => {
  it("tells a new id from one seen before, on any page of the uint32 range", () => {
    const s = new SeenIds();
    for (const id of [2950159, 2911298, 2950159 + 62 * 20_000_000, 0xffffffff, 0]) {
      expect(s.has(id)).toBe(false);
      expect(s.testAndSet(id)).toBe(false);
      expect(s.testAndSet(id)).toBe(true);
      expect(s.has(id)).toBe(true);
    }
    // Neighbours on the same page and word stay unseen.
    expect(s.has(2950158)).toBe(false);
    expect(s.has(2950160)).toBe(false);
    expect(s.has(0xfffffffe)).toBe(false);
  });

  it("never holds an id outside uint32, and refuses to add one", () => {
    const s = new SeenIds();
    expect(s.has(2 ** 32)).toBe(false);
    expect(s.has(-1)).toBe(false);
    expect(() => s.testAndSet(2 ** 32)).toThrow(/0 to 2\^32-1, got 4294967296/);
  });

  it("addAll unites two sets without sharing pages", () => {
    const a = new SeenIds();
    const b = new SeenIds();
    a.testAndSet(2950159);
    b.testAndSet(2911298);
    b.testAndSet(1_202_950_159);
    a.addAll(b);
    expect([2950159, 2911298, 1_202_950_159].map((id) => a.has(id))).toEqual([true, true, true]);
    b.testAndSet(1_202_950_160);
    expect(a.has(1_202_950_160)).toBe(false);
  });
});
