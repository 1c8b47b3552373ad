/**
 * Scores the outside view: per class, how often the search's first answer (first 5 for prefixes)
 * is right for the source's place (correct.ts), beside population-only baselines over the GeoNames
 * candidates of the same query's name part (candidates.ts), computed in the same run:
 * - population: the candidates by population; for "name, region" and "name, country" only those in
 *   an area the qualifier names (qualifiers.ts), none when it names no known area;
 * - population, lenient: the same, but the name alone when no candidate lies in an area the
 *   qualifier names (it names no known area, or none that holds a place so called): a qualifier
 *   that never empties an answer;
 * - reachable: some candidate of the lenient list is right (the ceiling of any order of them).
 * A transposed name has no candidates by construction; beside it stands the plain name's score on
 * the same places instead.
 */
import type { Candidates } from "./candidates.ts";
import { distanceKm, isCorrect } from "./correct.ts";
import type { GazetteerRow } from "./gazetteer.ts";
import type { OutsideRow } from "./outside-gazetteer.ts";
import { OUTSIDE_KINDS, topOf, type OutsideKind, type OutsideQuery } from "./outside-queries.ts";
import { areaOf, type Qualifiers } from "./qualifiers.ts";
import type { Searcher } from "./searcher.ts";

export interface OutsideStats {
  n: number;
  ours: number;
  population: number;
  lenient: number;
  reachable: number;
  /** Transposition only: the plain name's hits on the same places. */
  plainSame: number;
}

export interface OutsideEvaluation {
  stats: Map<OutsideKind, OutsideStats>;
  misses: Map<OutsideKind, string[]>;
  /** Answers whose GeoNames id the bench's gazetteer does not hold (counted as wrong). */
  unknownIds: number;
}

export interface Baselines {
  strict: readonly GazetteerRow[];
  lenient: readonly GazetteerRow[];
}

/** The population-ordered candidates of a query; undefined for transpositions. */
export function baselinesOf(query: OutsideQuery, candidates: Candidates, qualifiers: Qualifiers): Baselines | undefined {
  const { kind, name, qualifier } = query;
  if (kind === "transposition") return undefined;
  if (kind === "prefix4") {
    const all = candidates.prefix(name);
    return { strict: all, lenient: all };
  }
  const all = candidates.exact(name);
  if (qualifier === undefined || (kind !== "region" && kind !== "country")) return { strict: all, lenient: all };
  const areas = qualifiers.areas(kind, qualifier);
  const inside = areas === undefined ? [] : all.filter((c) => areas.has(areaOf(kind, c)));
  return { strict: inside, lenient: inside.length > 0 ? inside : all };
}

const anyRight = (places: readonly GazetteerRow[], row: OutsideRow, top: number): boolean => places.slice(0, top).some((p) => isCorrect(p, row));

export async function evaluateOutside(search: Searcher, byId: ReadonlyMap<number, GazetteerRow>, candidates: Candidates, qualifiers: Qualifiers, queries: readonly OutsideQuery[]): Promise<OutsideEvaluation> {
  const stats = new Map<OutsideKind, OutsideStats>(OUTSIDE_KINDS.map((k) => [k, { n: 0, ours: 0, population: 0, lenient: 0, reachable: 0, plainSame: 0 }]));
  const misses = new Map<OutsideKind, string[]>();
  const plainHit = new Map<OutsideRow, boolean>();
  let unknownIds = 0;
  for (const query of queries) {
    const { kind, q, row } = query;
    const top = topOf(kind);
    const ids = await search(q, top);
    const got = ids.map((id) => byId.get(id));
    unknownIds += got.filter((p) => p === undefined).length;
    const answers = got.filter((p): p is GazetteerRow => p !== undefined);
    const hit = anyRight(answers, row, top);
    const s = stats.get(kind)!;
    s.n++;
    if (hit) s.ours++;
    if (kind === "plain") plainHit.set(row, hit);
    if (kind === "transposition" && plainHit.get(row) === true) s.plainSame++;
    const base = baselinesOf(query, candidates, qualifiers);
    if (base !== undefined) {
      if (anyRight(base.strict, row, top)) s.population++;
      if (anyRight(base.lenient, row, top)) s.lenient++;
      if (base.lenient.some((p) => isCorrect(p, row))) s.reachable++;
    }
    if (!hit) {
      const first = answers[0];
      const said = first === undefined ? "nothing" : `${first.name} (${first.cc}, ${distanceKm(first, row).toFixed(0)} km)`;
      const list = misses.get(kind) ?? [];
      list.push(`${JSON.stringify(q)} → ${said}, want ${row.name} (${row.cc}${row.region === "" ? "" : `, ${row.region}`})`);
      misses.set(kind, list);
    }
  }
  return { stats, misses, unknownIds };
}

const pct = (a: number, n: number): string => (n === 0 ? "-" : (100 * a / n).toFixed(1));

export const OUTSIDE_LABEL: Readonly<Record<OutsideKind, string>> = {
  plain: "plain name, top-1",
  region: '"name, region", top-1',
  country: '"name, country", top-1',
  prefix4: "4-letter prefix, top-5",
  transposition: "one transposition, top-1",
  alternate: "name GeoNames holds only as alternate, top-1",
};

/** "ours / population-only" in percent, the shape of one cell of the summary tables. */
export function cell(s: OutsideStats, kind: OutsideKind): string {
  if (s.n === 0) return "-";
  if (kind === "transposition") return `${pct(s.ours, s.n)} (plain ${pct(s.plainSame, s.n)})`;
  const lenient = kind === "region" || kind === "country" ? ` / ${pct(s.lenient, s.n)}` : "";
  return `${pct(s.ours, s.n)} / ${pct(s.population, s.n)}${lenient}`;
}

export function printOutsideEvaluation(title: string, { stats, misses, unknownIds }: OutsideEvaluation, missesShown: number): void {
  console.log(`\n${title}`);
  console.table(
    OUTSIDE_KINDS.map((kind) => {
      const s = stats.get(kind)!;
      const qualified = kind === "region" || kind === "country";
      return {
        class: OUTSIDE_LABEL[kind],
        queries: s.n,
        "ours %": pct(s.ours, s.n),
        "population-only %": kind === "transposition" ? "" : pct(s.population, s.n),
        "population, name alone if the qualifier empties it %": qualified ? pct(s.lenient, s.n) : "",
        "a candidate is right %": kind === "transposition" ? "" : pct(s.reachable, s.n),
        "plain name, same places %": kind === "transposition" ? pct(s.plainSame, s.n) : "",
      };
    }),
  );
  if (unknownIds > 0) console.log(`answers with a GeoNames id the embedded dumps do not hold: ${unknownIds} (counted as wrong)`);
  if (missesShown > 0) for (const kind of OUTSIDE_KINDS) {
    const list = misses.get(kind) ?? [];
    if (list.length > 0) console.log(`${kind} misses (${list.length}): ${list.slice(0, missesShown).join("; ")}`);
  }
}
