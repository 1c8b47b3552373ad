/**
 * Deduplication and retention of observations.
 * - One observation per (kind, station, timestamp). A correction replaces what it corrects (higher
 *   correction rank wins: CCB over CCA over the original; COR counts as CCA); at equal rank the
 *   report read later wins (files are read in the order given, directories in name order, so a
 *   retransmission replaces the earlier copy).
 * - Retention: per station, observations older than `retentionDays` before that station's newest
 *   observation are dropped. The reference is the station's own newest report, not the clock, so
 *   that rebuilding an archive (or the embedded default, from 2023-2026 corpora) keeps each
 *   station's recent history instead of dropping everything older than "now".
 */
import type { StoredObservation } from "../../../datasets/stations/record.ts";
import { correctionRank } from "./observe.ts";

export class ObservationSet {
  private readonly byKey = new Map<string, { obs: StoredObservation; rank: number }>();
  replaced = 0;
  ignoredOlderCorrection = 0;

  add(obs: StoredObservation): void {
    const key = `${obs.kind}|${obs.station}|${obs.record.timestamp}`;
    const rank = correctionRank(obs.correction);
    const prev = this.byKey.get(key);
    if (prev && prev.rank > rank) {
      this.ignoredOlderCorrection++;
      return;
    }
    if (prev) this.replaced++;
    this.byKey.set(key, { obs, rank });
  }

  get size(): number {
    return this.byKey.size;
  }

  /** The kept observations after retention, and how many retention dropped. */
  finish(retentionDays: number): { observations: StoredObservation[]; droppedByRetention: number } {
    const newest = new Map<string, number>();
    for (const { obs } of this.byKey.values()) {
      const k = `${obs.kind}|${obs.station}`;
      const t = newest.get(k);
      if (t === undefined || obs.record.timestamp > t) newest.set(k, obs.record.timestamp);
    }
    const window = retentionDays * 86_400;
    const observations: StoredObservation[] = [];
    let droppedByRetention = 0;
    for (const { obs } of this.byKey.values()) {
      if (obs.record.timestamp < newest.get(`${obs.kind}|${obs.station}`)! - window) droppedByRetention++;
      else observations.push(obs);
    }
    observations.sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.station < b.station ? -1 : a.station > b.station ? 1 : a.record.timestamp - b.record.timestamp));
    return { observations, droppedByRetention };
  }
}
