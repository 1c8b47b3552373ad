/**
 * The GeoNames candidates of a query's name part, for the population-only baseline of the outside
 * view: every place of the embedded GeoNames data (the bench's gazetteer, gazetteer.ts) whose main,
 * ASCII or alternate name (the dumps' alternatenames column) equals the name after folding
 * (datasets/places/fold.ts: case, diacritics, punctuation), or for prefix queries starts with it;
 * in population order, ties by GeoNames id (the gazetteer's rank). A baseline with nothing but a
 * name list and populations: what a plain "names sorted by population" geocoder answers.
 */
import { foldName } from "../../datasets/places/fold.ts";
import type { GazetteerRow } from "./gazetteer.ts";

export class Candidates {
  /** Folded name -> its carriers in population order, each once. */
  private readonly byName = new Map<string, GazetteerRow[]>();
  /** The folded names, sorted by code unit, for prefix ranges. */
  private readonly sorted: string[];

  /** `rows` in population order (as loadGazetteer gives them). */
  constructor(rows: readonly GazetteerRow[]) {
    for (const r of rows) {
      for (const n of [r.name, r.ascii, ...r.alternates]) {
        const key = foldName(n);
        if (key === "") continue;
        const list = this.byName.get(key);
        if (list === undefined) this.byName.set(key, [r]);
        else if (list[list.length - 1] !== r) list.push(r);
      }
    }
    this.sorted = [...this.byName.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Places with a name that folds to `name`, in population order. */
  exact(name: string): readonly GazetteerRow[] {
    return this.byName.get(foldName(name)) ?? [];
  }

  /** Places with a name whose fold starts with the fold of `prefix`, in population order. */
  prefix(prefix: string): GazetteerRow[] {
    const p = foldName(prefix);
    if (p === "") return [];
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sorted[mid]! < p) lo = mid + 1;
      else hi = mid;
    }
    const found = new Set<GazetteerRow>();
    for (let i = lo; i < this.sorted.length && this.sorted[i]!.startsWith(p); i++) for (const r of this.byName.get(this.sorted[i]!)!) found.add(r);
    return [...found].sort((a, b) => a.rank - b.rank);
  }
}
