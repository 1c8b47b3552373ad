/**
 * The population-only baseline of the outside view: its candidates (bench/relevance/candidates.ts:
 * main, ASCII or alternate names of the embedded GeoNames rows, folded, exact or by prefix, in
 * population order) and its qualifier filters (bench/relevance/qualifiers.ts, baselinesOf), on
 * whole lines of cities15000, admin1CodesASCII and countryInfo.
 */
import { describe, expect, it } from "vitest";
import { Candidates } from "../../../bench/relevance/candidates.ts";
import { baselinesOf } from "../../../bench/relevance/outside-evaluate.ts";
import { parseOutsideRows } from "../../../bench/relevance/outside-gazetteer.ts";
import type { OutsideQuery } from "../../../bench/relevance/outside-queries.ts";
import { Qualifiers } from "../../../bench/relevance/qualifiers.ts";
import { ADMIN1_LINES, COUNTRY_LINES, geonamesRows, OUTSIDE_ROWS } from "./fixtures.ts";

const names = (rows: readonly { name: string }[]): string[] => rows.map((r) => r.name);

describe("Candidates", () => {
  const candidates = new Candidates(geonamesRows());

  it("matches main, ASCII and alternate names after case and diacritic folding", () => {
    expect(names(candidates.exact("Porto"))).toEqual(["Porto"]);
    expect(names(candidates.exact("KUNSAN"))).toEqual(["Gunsan"]);
    expect(names(candidates.exact("Pôrto de São Francisco dos Casaes"))).toEqual(["Porto Alegre"]);
    expect(names(candidates.exact("porto de sao francisco dos casaes"))).toEqual(["Porto Alegre"]);
    expect(names(candidates.exact("Кунсан"))).toEqual(["Gunsan"]);
    expect(candidates.exact("Kunsa")).toEqual([]);
    expect(candidates.exact("")).toEqual([]);
  });

  it("matches prefixes of any name, each place once, most populous first", () => {
    // Kunshan (2,092,496 in cities15000) by its own name, Gunsan (264,656) by "Kunsan", "Kunsanpo".
    expect(names(candidates.prefix("Kuns"))).toEqual(["Kunshan", "Gunsan"]);
    // Porto Alegre (1,488,252) and Porto (249,633): both by own names, Porto Alegre by many alternates too.
    expect(names(candidates.prefix("porto"))).toEqual(["Porto Alegre", "Porto"]);
    expect(candidates.prefix("Zzzz")).toEqual([]);
    expect(candidates.prefix(" ")).toEqual([]);
  });
});

describe("baselinesOf", () => {
  const candidates = new Candidates(geonamesRows());
  const qualifiers = new Qualifiers();
  qualifiers.addAdmin1Lines(ADMIN1_LINES);
  qualifiers.addCountryInfoLines(["#ISO\tISO3\tISO-Numeric\tfips\tCountry", ...COUNTRY_LINES]);
  const outside = parseOutsideRows(OUTSIDE_ROWS);
  const row = (name: string, cc: string) => outside.find((r) => r.name === name && r.cc === cc)!;
  const query = (q: Partial<OutsideQuery> & Pick<OutsideQuery, "kind" | "name">): OutsideQuery => ({ q: q.name, row: row("Bekasi", "ID"), ...q });

  it("keeps the candidates in an area the qualifier names", () => {
    const b = baselinesOf(query({ kind: "region", name: "Bekasi", qualifier: "west java" }), candidates, qualifiers)!;
    expect(names(b.strict)).toEqual(["Bekasi"]);
    expect(names(b.lenient)).toEqual(["Bekasi"]);
    const pt = baselinesOf(query({ kind: "country", name: "Porto", qualifier: "PRT" }), candidates, qualifiers)!;
    expect(names(pt.strict)).toEqual(["Porto"]);
  });

  it("drops the candidates outside the named area; leniently, only while one is left", () => {
    const b = baselinesOf(query({ kind: "country", name: "Porto", qualifier: "Indonesia" }), candidates, qualifiers)!;
    expect(b.strict).toEqual([]);
    expect(names(b.lenient)).toEqual(["Porto"]);
    const kr = baselinesOf(query({ kind: "country", name: "Kunsan", qualifier: "South Korea" }), candidates, qualifiers)!;
    expect(names(kr.strict)).toEqual(["Gunsan"]);
  });

  it("for a qualifier naming no known area: nothing strictly, the name alone leniently", () => {
    // SimpleMaps writes West Java as Jawa Barat, which admin1CodesASCII does not know.
    const b = baselinesOf(query({ kind: "region", name: "Bekasi", qualifier: "Jawa Barat" }), candidates, qualifiers)!;
    expect(b.strict).toEqual([]);
    expect(names(b.lenient)).toEqual(["Bekasi"]);
  });

  it("uses prefixes for the prefix class, and has no baseline for transpositions", () => {
    expect(names(baselinesOf(query({ kind: "prefix4", name: "Kuns" }), candidates, qualifiers)!.strict)).toEqual(["Kunshan", "Gunsan"]);
    expect(baselinesOf(query({ kind: "transposition", name: "Bkeasi" }), candidates, qualifiers)).toBeUndefined();
  });
});
