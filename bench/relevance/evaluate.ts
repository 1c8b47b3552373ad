/**
 * Scores a query set against the places index: top-1 and top-5 of the index's order beside two
 * population-only orders of the same matches (ties by GeoNames id):
 * - "population": every place the index matched, re-ordered by population alone;
 * - "population, own prefix" (prefix classes): the matched places whose own name (GeoNames or
 *   ASCII name, folded) starts with the folded query, by population: what a plain "name starts
 *   with" list sorted by population gives, free of alternate-name and typo matches.
 * Per class, with the misses listed.
 */
import { foldName } from "../../datasets/places/fold.ts";
import type { PlacesData } from "../../server/places/places-data.ts";
import { KINDS, type Kind, type Query, type Truth } from "./queries.ts";

export interface ClassStats {
  n: number;
  top1: number;
  top5: number;
  pop1: number;
  pop5: number;
  own1: number;
  own5: number;
}

export interface Evaluation {
  stats: Map<Kind, ClassStats>;
  /** Per class: the queries the index order misses (prefix classes: top 5, others: top 1). */
  misses: Map<Kind, string[]>;
}

const isPrefix = (kind: Kind): boolean => kind.startsWith("prefix");

export function evaluate(data: PlacesData, truth: Truth, queries: readonly Query[]): Evaluation {
  const ix = data.index;
  const idOf = (place: number): number => ix.record(place).geonameId!;
  const byPopulation = (a: number, b: number): number => ix.record(b).population! - ix.record(a).population! || idOf(a) - idOf(b);
  const stats = new Map<Kind, ClassStats>(KINDS.map((k) => [k, { n: 0, top1: 0, top5: 0, pop1: 0, pop5: 0, own1: 0, own5: 0 }]));
  const misses = new Map<Kind, string[]>();
  for (const { kind, q, truth: want } of queries) {
    const s = stats.get(kind)!;
    const got = data.search(q, 5, 0).places.map(idOf);
    const all = data.search(q, data.search(q, 0, 0).total, 0).places;
    const pop = [...all].sort(byPopulation).slice(0, 5).map(idOf);
    s.n++;
    if (got[0] === want) s.top1++;
    if (got.includes(want)) s.top5++;
    if (pop[0] === want) s.pop1++;
    if (pop.includes(want)) s.pop5++;
    if (isPrefix(kind)) {
      const key = foldName(q);
      const own = all
        .filter((p) => truth.byId.get(idOf(p))?.own.some((n) => n.startsWith(key)))
        .sort(byPopulation)
        .slice(0, 5)
        .map(idOf);
      if (own[0] === want) s.own1++;
      if (own.includes(want)) s.own5++;
    }
    const miss = isPrefix(kind) ? !got.includes(want) : got[0] !== want;
    if (miss) {
      const list = misses.get(kind) ?? [];
      const first = got[0] === undefined ? "nothing" : `${ix.record(data.placeByGeonameId(got[0])!).name} (gn:${got[0]})`;
      list.push(`${JSON.stringify(q)} → ${first}, want gn:${want}`);
      misses.set(kind, list);
    }
  }
  return { stats, misses };
}

const pct = (a: number, n: number): string => (n === 0 ? "-" : `${((100 * a) / n).toFixed(1)} %`);

/** Prints one evaluation: a table per class, index order beside population-only, and the first misses. */
export function printEvaluation(title: string, { stats, misses }: Evaluation, missesShown = 12): void {
  console.log(`\n${title}`);
  console.table(
    KINDS.map((kind) => {
      const s = stats.get(kind)!;
      return {
        class: kind,
        queries: s.n,
        "top-1": pct(s.top1, s.n),
        "top-5": pct(s.top5, s.n),
        "population top-1 / top-5": `${pct(s.pop1, s.n)} / ${pct(s.pop5, s.n)}`,
        "population, own prefix top-1 / top-5": isPrefix(kind) ? `${pct(s.own1, s.n)} / ${pct(s.own5, s.n)}` : "",
      };
    }),
  );
  const below = KINDS.flatMap((k) => {
    const s = stats.get(k)!;
    const out: string[] = [];
    if (s.top1 < s.pop1 || s.top5 < s.pop5) out.push(`${k} (population)`);
    if (isPrefix(k) && (s.top1 < s.own1 || s.top5 < s.own5)) out.push(`${k} (${s.top1 < s.own1 ? "top-1" : ""}${s.top1 < s.own1 && s.top5 < s.own5 ? ", " : ""}${s.top5 < s.own5 ? "top-5" : ""} below population, own prefix)`);
    return out;
  });
  console.log(`below a population-only order: ${below.length === 0 ? "none" : below.join("; ")}`);
  if (missesShown > 0) for (const [kind, list] of misses) console.log(`${kind} misses (${list.length}): ${list.slice(0, missesShown).join("; ")}`);
}
