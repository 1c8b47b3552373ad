/**
 * The slices of the relevance bench and their seeded split into a tuning part and a held-out part.
 *
 * Slices (places outside the 1,000 most populous of cities15000, which the top-1000 evaluation
 * and the named cases use): cities15000 ranks 1,001-2,500, cities15000 beyond rank 2,500, and
 * cities500 places that cities15000 does not hold (ranks by population within cities15000 for the
 * first two). A place belongs to the held-out part when the first draw of mulberry32(SPLIT_SEED
 * XOR its GeoNames id) is below one half, else to the tuning part: the split depends on the id
 * alone, not on which places are in the dumps or in what order. Each part of a slice is sampled
 * to at most `perSlice` places, in the order of a second seeded draw (SAMPLE_SEED).
 *
 * Ranking changes are tuned on the tuning part only; the held-out part is printed only with
 * --held-out, to be read once at the end.
 */
import { mulberry32 } from "../../datasets/common/prng.ts";
import type { GazetteerRow } from "./gazetteer.ts";

export const SPLIT_SEED = 31_2026;
const SAMPLE_SEED = 31_31;

export type Part = "tuning" | "held-out";

export function partOf(geonameId: number): Part {
  return mulberry32((SPLIT_SEED ^ geonameId) >>> 0)() < 0.5 ? "held-out" : "tuning";
}

export interface Slice {
  name: string;
  places: GazetteerRow[];
}

function sample(places: GazetteerRow[], n: number): GazetteerRow[] {
  const key = new Map(places.map((p) => [p, mulberry32((SAMPLE_SEED ^ p.id) >>> 0)()]));
  return [...places].sort((a, b) => key.get(a)! - key.get(b)! || a.id - b.id).slice(0, n);
}

/** The slices of one part; `rows` in population order. */
export function slicesOf(rows: readonly GazetteerRow[], part: Part, perSlice: number): Slice[] {
  const cities15000 = rows.filter((r) => r.inCities15000);
  const mine = (list: readonly GazetteerRow[]): GazetteerRow[] => list.filter((r) => partOf(r.id) === part);
  return [
    { name: "cities15000 ranks 1,001-2,500", places: sample(mine(cities15000.slice(1000, 2500)), perSlice) },
    { name: "cities15000 ranks 2,501+", places: sample(mine(cities15000.slice(2500)), perSlice) },
    { name: "cities500 only", places: sample(mine(rows.filter((r) => !r.inCities15000)), perSlice) },
  ];
}
