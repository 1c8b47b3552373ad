/**
 * Builds the slot table of the reverse-geocoding index from the two polygon layers: per slot a
 * single (admin, timezone) answer, a boundary record, or the exact fallback. records.ts then
 * writes the records in the artifact's form (FORMAT.md).
 */
import { SLOT_BOUNDARY_BIT, SLOT_FALLBACK } from "../../datasets/admin/admin-index.ts";
import { REF_INSIDE_BIT } from "../../datasets/admin/boundary-record.ts";
import { COAST_TOLERANCE_KM, NO_FEATURE } from "../../datasets/admin/exact.ts";
import type { PolygonLayer } from "../../datasets/admin/polygon-layer.ts";
import { SlotGrid, computeLayout, type SlotGridLayout } from "../../datasets/admin/slot-grid.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { Progress } from "../common/progress.ts";
import { assignEdges, ringsFor, type SlotEdges } from "./assign-edges.ts";
import { computeInsideSets, featureOfVertex, insideSetOf, type InsideSets } from "./inside-sets.ts";
import { computeSlotGeometry } from "./slot-geometry.ts";

export interface IndexStats {
  slots: number;
  singleSlots: number;
  boundarySlots: number;
  fallbackSlots: number;
  answers: number;
  adminCandidates: number;
  tzCandidates: number;
  adminRuns: number;
  tzRuns: number;
  seeds: number;
}

/** Per layer, for each boundary record: candidate features and their edge runs. */
export interface LayerCandidates {
  /** Record b's candidates are candOffset[b] .. candOffset[b+1]-1 (length records + 1). */
  candOffset: Uint32Array;
  /** Feature id, with REF_INSIDE_BIT when the reference point is inside it; sorted by feature id. */
  candFeature: Uint32Array;
  /** Candidate c's runs are candRunOffset[c] .. candRunOffset[c+1]-1. */
  candRunOffset: Uint32Array;
  /** First vertex of a run of consecutive edges (edge v runs from vertex v to v+1). */
  runStart: Uint32Array;
  /** Number of edges in the run. */
  runCount: Uint32Array;
}

/** The slot table as built: record numbers in the slot words, candidates as edge runs. */
export interface SlotTable {
  layout: SlotGridLayout;
  /** Per slot: an answer index, SLOT_BOUNDARY_BIT | record number, or SLOT_FALLBACK. */
  slotWord: Uint32Array;
  /** Pairs (admin feature, timezone feature) of single-answer slots; NO_FEATURE for none. */
  answers: Uint32Array;
  /** Per boundary record: reference lon, lat, then the box min lon, min lat, max lon, max lat. */
  boundaryGeom: Float64Array;
  adminCandidates: LayerCandidates;
  tzCandidates: LayerCandidates;
}

interface LayerWork {
  layer: PolygonLayer;
  edges: SlotEdges;
  featOf: Int32Array;
  sets: InsideSets;
}

class CandidateWriter {
  candOffset: number[] = [0];
  candFeature: number[] = [];
  candRunOffset: number[] = [0];
  runStart: number[] = [];
  runCount: number[] = [];

  addRecord(w: LayerWork, s: number): void {
    const inside = insideSetOf(w.sets, s);
    const { start, edges } = w.edges;
    const features = new Set<number>(inside);
    for (let k = start[s]!; k < start[s + 1]!; k++) features.add(w.featOf[edges[k]!]!);
    const sorted = [...features].sort((a, b) => a - b);
    for (const f of sorted) {
      this.candFeature.push((inside.includes(f) ? (f | REF_INSIDE_BIT) >>> 0 : f) >>> 0);
      // Runs of consecutive edge ids of this feature (edge lists are ascending).
      let k = start[s]!;
      const end = start[s + 1]!;
      while (k < end) {
        const e = edges[k]!;
        if (w.featOf[e] !== f) {
          k++;
          continue;
        }
        let count = 1;
        while (k + count < end && edges[k + count] === e + count) count++;
        this.runStart.push(e);
        this.runCount.push(count);
        k += count;
      }
      this.candRunOffset.push(this.runStart.length);
    }
    this.candOffset.push(this.candFeature.length);
  }

  finish(): LayerCandidates {
    return {
      candOffset: Uint32Array.from(this.candOffset),
      candFeature: Uint32Array.from(this.candFeature),
      candRunOffset: Uint32Array.from(this.candRunOffset),
      runStart: Uint32Array.from(this.runStart),
      runCount: Uint32Array.from(this.runCount),
    };
  }
}

export function buildIndex(admin: PolygonLayer, tz: PolygonLayer, res: number, logger: Logger): { data: SlotTable; stats: IndexStats } {
  let t = performance.now();
  const layout = computeLayout(res);
  const grid = new SlotGrid(layout);
  const geom = computeSlotGeometry(grid);
  logger.info("slot grid", { res, slots: grid.slotCount, elapsedS: Math.round(performance.now() - t) / 1000 });
  const work: LayerWork[] = [];
  let seeds = 0;
  for (const [name, layer] of [["admin", admin], ["timezones", tz]] as const) {
    t = performance.now();
    const progress = new Progress(logger, `assign ${name} edges to slots`, layer.xy.length / 2, "edges");
    const rings = name === "admin" ? ringsFor(res, COAST_TOLERANCE_KM) : 2;
    const edges = assignEdges(grid, geom, layer, name === "admin" ? geom.adminBox : geom.box, progress, rings);
    progress.finish({ pairs: edges.edges.length });
    const featOf = featureOfVertex(layer);
    const inside = computeInsideSets(grid, geom, layer, edges, featOf);
    seeds += inside.seeds;
    logger.info("reference points resolved", { layer: name, seeds: inside.seeds, elapsedS: Math.round(performance.now() - t) / 1000 });
    work.push({ layer, edges, featOf, sets: inside.sets });
  }
  const [wa, wt] = work as [LayerWork, LayerWork];
  const slotWord = new Uint32Array(grid.slotCount);
  const answers: number[] = [];
  const answerIds = new Map<string, number>();
  const adminWriter = new CandidateWriter();
  const tzWriter = new CandidateWriter();
  const boundaryGeom: number[] = [];
  let single = 0;
  let fallback = 0;
  for (let s = 0; s < grid.slotCount; s++) {
    if (geom.fallback[s] === 1) {
      slotWord[s] = SLOT_FALLBACK;
      fallback++;
      continue;
    }
    const adminEdges = wa.edges.start[s + 1]! - wa.edges.start[s]!;
    const tzEdges = wt.edges.start[s + 1]! - wt.edges.start[s]!;
    if (adminEdges === 0 && tzEdges === 0) {
      const a = insideSetOf(wa.sets, s)[0] ?? NO_FEATURE;
      const z = insideSetOf(wt.sets, s)[0] ?? NO_FEATURE;
      const key = `${a},${z}`;
      let id = answerIds.get(key);
      if (id === undefined) {
        id = answers.length / 2;
        answerIds.set(key, id);
        answers.push(a, z);
      }
      slotWord[s] = id;
      single++;
      continue;
    }
    const b = boundaryGeom.length / 6;
    slotWord[s] = (SLOT_BOUNDARY_BIT | b) >>> 0;
    boundaryGeom.push(geom.center[2 * s]!, geom.center[2 * s + 1]!, geom.box[4 * s]!, geom.box[4 * s + 1]!, geom.box[4 * s + 2]!, geom.box[4 * s + 3]!);
    adminWriter.addRecord(wa, s);
    tzWriter.addRecord(wt, s);
  }
  const adminCandidates = adminWriter.finish();
  const tzCandidates = tzWriter.finish();
  const stats: IndexStats = {
    slots: grid.slotCount,
    singleSlots: single,
    boundarySlots: boundaryGeom.length / 6,
    fallbackSlots: fallback,
    answers: answers.length / 2,
    adminCandidates: adminCandidates.candFeature.length,
    tzCandidates: tzCandidates.candFeature.length,
    adminRuns: adminCandidates.runStart.length,
    tzRuns: tzCandidates.runStart.length,
    seeds,
  };
  return {
    data: { layout, slotWord, answers: Uint32Array.from(answers), boundaryGeom: Float64Array.from(boundaryGeom), adminCandidates, tzCandidates },
    stats,
  };
}
