/** fnv1a.ts against FNV-1a's published 32-bit test vectors (the FNV reference page's test suite). */
import { describe, expect, it } from "vitest";
import { fnv1a } from "../../../server/http/fnv1a.ts";

describe("fnv1a", () => {
  it("gives the published 32-bit FNV-1a values", () => {
    expect([fnv1a(""), fnv1a("a"), fnv1a("foobar")]).toEqual([0x811c9dc5, 0xe40c292c, 0xbf9cf968]);
  });
});
