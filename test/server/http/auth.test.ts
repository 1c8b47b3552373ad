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
  it("compares the whole length: a key of 256 characters, its prefixes, and a zero byte past its end", () => {
    const longest = "k".repeat(255) + "z";
    const long = new KeyChecker([longest, "short-key-0123456"]);
    expect(long.isValid(longest)).toBe(true);
    expect(long.isValid(longest.slice(0, -1))).toBe(false);
    expect(long.isValid(`${longest}z`)).toBe(false);
    expect(long.isValid("short-key-0123456")).toBe(true);
    expect(long.isValid("short-key-0123456\u0000")).toBe(false);
    // Non-ASCII: bytes differ from any printable-ASCII key; 100 three-byte characters fit, 200 do not.
    expect(long.isValid("ключ-0123456789")).toBe(false);
    expect(long.isValid("€".repeat(200))).toBe(false);
  });
  it("refuses everything when no key is configured", () => {
    expect(new KeyChecker([]).isValid("anything-at-all-123")).toBe(false);
  });
});
