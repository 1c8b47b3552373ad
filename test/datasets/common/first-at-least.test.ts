import { describe, expect, it } from "vitest";
import { firstAtLeast } from "../../../datasets/common/first-at-least.ts";

describe("firstAtLeast", () => {
  const sorted = Float64Array.from([-3, 1, 1, 4, 9]);
  it("gives the first index whose value is at least the one asked", () => {
    expect(firstAtLeast(sorted, -10)).toBe(0);
    expect(firstAtLeast(sorted, -3)).toBe(0);
    expect(firstAtLeast(sorted, 0)).toBe(1);
    expect(firstAtLeast(sorted, 1)).toBe(1); // the first of equal values
    expect(firstAtLeast(sorted, 2)).toBe(3);
    expect(firstAtLeast(sorted, 9)).toBe(4);
  });
  it("gives the length when every value is smaller, and 0 for an empty array", () => {
    expect(firstAtLeast(sorted, 10)).toBe(5);
    expect(firstAtLeast([], 1)).toBe(0);
  });
});
