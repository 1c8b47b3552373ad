/**
 * The two views of the relevance bench in one table: the outside gazetteer's classes per sample
 * ("ours / population-only", and for qualifiers "/ population with the name alone where the
 * qualifier leaves no candidate"), beside the nearest class of the GeoNames-truth view (top-1000 and the
 * tuning slices, "ours / population order of all matches").
 */
import type { Kind } from "./queries.ts";
import type { Evaluation } from "./evaluate.ts";
import { cell, OUTSIDE_LABEL, type OutsideEvaluation } from "./outside-evaluate.ts";
import { OUTSIDE_KINDS, type OutsideKind } from "./outside-queries.ts";

/** The GeoNames-truth class that asks the same kind of question, and whether it is scored top-5. */
const GEONAMES_PEER: Readonly<Record<OutsideKind, { kind: Kind; top5: boolean } | undefined>> = {
  plain: { kind: "exact", top5: false },
  region: undefined,
  country: { kind: "qualified", top5: false },
  prefix4: { kind: "prefix4", top5: true },
  transposition: { kind: "typo", top5: false },
  alternate: { kind: "native", top5: false },
};

const pct = (a: number, n: number): string => (n === 0 ? "-" : (100 * a / n).toFixed(1));

function geonamesCell(e: Evaluation | undefined, outside: OutsideKind): string {
  const peer = GEONAMES_PEER[outside];
  if (e === undefined || peer === undefined) return "";
  const s = e.stats.get(peer.kind)!;
  return peer.top5 ? `${pct(s.top5, s.n)} / ${pct(s.pop5, s.n)}` : `${pct(s.top1, s.n)} / ${pct(s.pop1, s.n)}`;
}

export function printSideBySide(outside: ReadonlyMap<string, OutsideEvaluation>, geonames: ReadonlyMap<string, Evaluation>): void {
  console.log("\nside by side (percent; outside: ours / population-only [/ the name alone where the qualifier leaves no candidate]; transposition: ours (plain name on the same places); GeoNames: ours / population order)");
  console.table(
    OUTSIDE_KINDS.map((kind) => {
      const row: Record<string, string> = { class: OUTSIDE_LABEL[kind] };
      for (const [name, e] of outside) row[name] = cell(e.stats.get(kind)!, kind);
      const peer = GEONAMES_PEER[kind];
      if (geonames.size > 0) row["GeoNames class"] = peer === undefined ? "" : `${peer.kind}${peer.top5 ? " top-5" : " top-1"}`;
      for (const [name, e] of geonames) row[`GeoNames ${name}`] = geonamesCell(e, kind);
      return row;
    }),
  );
}
