/**
 * Queries of the outside view, one set per place of the outside gazetteer (outside-gazetteer.ts),
 * each typed as a person would type it from that source, with the source's place as the truth
 * (correct.ts):
 * - plain: the name ("Kunsan"), top-1;
 * - region: "name, region", the region as the source writes it ("Bekasi, Jawa Barat"), top-1;
 *   places without a region have none;
 * - country: "name, country", the country as the source writes it ("Banjul, The Gambia"), top-1;
 * - prefix4: the first 4 characters of names longer than that, top-5;
 * - transposition: the ASCII name with two adjacent letters swapped ("New Yrok"), top-1; see
 *   `transpose`; none when the result folds to a name of a GeoNames place (then it is no typo);
 * - alternate: the plain name again, for the places GeoNames holds under that name only as an
 *   alternate name (`alternateOnly`), top-1.
 * Samples: the 1,000 most populous places, ranks 1,001-5,000, and a seeded sample of places under
 * 50,000 people.
 */
import { mulberry32 } from "../../datasets/common/prng.ts";
import { foldName } from "../../datasets/places/fold.ts";
import type { Candidates } from "./candidates.ts";
import { isCorrect } from "./correct.ts";
import type { OutsideRow } from "./outside-gazetteer.ts";

export type OutsideKind = "plain" | "region" | "country" | "prefix4" | "transposition" | "alternate";
export const OUTSIDE_KINDS: readonly OutsideKind[] = ["plain", "region", "country", "prefix4", "transposition", "alternate"];

export interface OutsideQuery {
  kind: OutsideKind;
  q: string;
  /** The name part of `q` (the whole of it but for region and country). */
  name: string;
  /** The qualifier after the comma, for region and country. */
  qualifier?: string;
  row: OutsideRow;
}

/** How many of the first answers may hold the right one. */
export const topOf = (kind: OutsideKind): number => (kind === "prefix4" ? 5 : 1);

const ASCII_LETTER = /[A-Za-z]/;

/**
 * One transposition of two adjacent letters of `name`, at a position drawn from `random`: both
 * ASCII letters that differ (ignoring case), and neither the first letter of a word, which people
 * rarely get wrong ("New York" -> "New Yrok", never "eNw York"). Undefined when no position fits.
 */
export function transpose(name: string, random: () => number): string | undefined {
  const cps = [...name];
  const fits: number[] = [];
  for (let i = 1; i + 1 < cps.length; i++) {
    const [a, b] = [cps[i]!, cps[i + 1]!];
    const wordStart = !ASCII_LETTER.test(cps[i - 1]!);
    if (!wordStart && ASCII_LETTER.test(a) && ASCII_LETTER.test(b) && a.toLowerCase() !== b.toLowerCase()) fits.push(i);
  }
  if (fits.length === 0) return undefined;
  const i = fits[Math.floor(random() * fits.length)]!;
  [cps[i], cps[i + 1]] = [cps[i + 1]!, cps[i]!];
  return cps.join("");
}

/**
 * True when GeoNames knows the place under the source's name only as an alternate name: some
 * GeoNames place that is right for it (correct.ts) carries the name as an alternate, and none of
 * the right ones has it as its main or ASCII name ("Kunsan": Gunsan's alternate name).
 */
export function alternateOnly(row: OutsideRow, candidates: Candidates): boolean {
  const key = foldName(row.name);
  const right = candidates.exact(row.name).filter((c) => isCorrect(c, row));
  return right.length > 0 && right.every((c) => !c.own.includes(key));
}

/** The queries of every class for these places; transpositions drawn from `seed` and each place's id. */
export function outsideQueries(rows: readonly OutsideRow[], candidates: Candidates, seed: number): OutsideQuery[] {
  const out: OutsideQuery[] = [];
  for (const row of rows) {
    const { name } = row;
    out.push({ kind: "plain", q: name, name, row });
    if (row.region !== "") out.push({ kind: "region", q: `${name}, ${row.region}`, name, qualifier: row.region, row });
    out.push({ kind: "country", q: `${name}, ${row.country}`, name, qualifier: row.country, row });
    const chars = [...name];
    if (chars.length > 4) out.push({ kind: "prefix4", q: chars.slice(0, 4).join(""), name: chars.slice(0, 4).join(""), row });
    const t = transpose(row.ascii, mulberry32((seed ^ row.id) >>> 0));
    if (t !== undefined && candidates.exact(t).length === 0) out.push({ kind: "transposition", q: t, name: t, row });
    if (alternateOnly(row, candidates)) out.push({ kind: "alternate", q: name, name, row });
  }
  return out;
}

export interface OutsideSample {
  name: string;
  rows: OutsideRow[];
}

export const TOWN_POPULATION = 50_000;

/** The samples; `rows` in population order. Towns: a seeded draw of `towns` places under 50,000. */
export function outsideSamples(rows: readonly OutsideRow[], towns: number, seed: number): OutsideSample[] {
  const small = rows.filter((r) => r.population < TOWN_POPULATION);
  const key = new Map(small.map((r) => [r, mulberry32((seed ^ r.id) >>> 0)()]));
  return [
    { name: "top 1,000", rows: rows.slice(0, 1000) },
    { name: "ranks 1,001-5,000", rows: rows.slice(1000, 5000) },
    { name: `towns < 50,000 (${Math.min(towns, small.length)} of ${small.length})`, rows: [...small].sort((a, b) => key.get(a)! - key.get(b)! || a.id - b.id).slice(0, towns) },
  ];
}
