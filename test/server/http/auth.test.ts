import { describe, expect, it } from "vitest";
import { KeyChecker } from "../../../server/http/auth.ts";

describe("KeyChecker", () => {
  const checker = new KeyChecker(["first-key-0123456789", "second-key-0123456789"]);
  it("accepts every configured key", () => {
    expect(checker.isValid("first-key-0123456789")).toBe(true);
    expect(checker.isValid("second-key-0123456789")).toBe(true);
  });
  it.each([undefined, "", "first-key-012345678", "first-key-01234567890", "FIRST-KEY-0123456789", " first-key-0123456789"])("refuses %j", (k) => {
    expect(checker.isValid(k)).toBe(false);
  });
  it("refuses everything when no key is configured", () => {
    expect(new KeyChecker([]).isValid("anything-at-all-123")).toBe(false);
  });
});
