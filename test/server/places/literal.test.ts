/**
 * What a query's typed characters say beyond its folded key (server/places/literal.ts): a final
 * separator ends the word, apostrophes stand where a name has them.
 */
import { describe, expect, it } from "vitest";
import { foldKeepingApostrophes, literalOf } from "../../../server/places/literal.ts";

describe("literalOf", () => {
  it("has nothing to say about plain text", () => {
    for (const q of ["Berlin", "san", "São Paulo", "New Y", "St.", "D.C."]) expect(literalOf(q), q).toBeUndefined();
  });

  it("ends the word at a final space or other separator, not at a final full stop", () => {
    expect(literalOf("San ")).toEqual({ wordEnd: true, apostrophes: undefined });
    expect(literalOf("Saint-")).toEqual({ wordEnd: true, apostrophes: undefined });
    expect(literalOf("St.")).toBeUndefined();
  });

  it("keeps apostrophes, all variants alike, as a prefix of the name's own fold", () => {
    const a = literalOf("Ji’a")!;
    expect(a.wordEnd).toBe(false);
    expect(foldKeepingApostrophes("Ji’an").startsWith(a.apostrophes!)).toBe(true);
    expect(foldKeepingApostrophes("Ji'an").startsWith(a.apostrophes!)).toBe(true);
    expect(foldKeepingApostrophes("Jiangmen").startsWith(a.apostrophes!)).toBe(false);
    expect(foldKeepingApostrophes("Al ‘Amārah").startsWith(literalOf("Al ‘")!.apostrophes!)).toBe(true);
  });
});
