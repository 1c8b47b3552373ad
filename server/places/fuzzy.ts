/**
 * Typo matching over the trigram index: candidate keys share enough trigrams with the query
 * (each edit destroys at most 3 grams, a transposition 4) and differ in length by at most the
 * allowed edits; candidates are then verified with the bounded edit distance. No scan of the keys.
 */
import type { PlacesIndex } from "../../datasets/places/index-reader.ts";
import { gramHashes } from "../../datasets/places/trigrams.ts";
import { codePoints, osaDistanceWithin } from "./edit-distance.ts";

export class FuzzyMatcher {
  private readonly counts: Uint8Array;
  private readonly touched: Uint32Array;

  constructor(private readonly index: PlacesIndex) {
    this.counts = new Uint8Array(index.fuzzyKeys.length);
    this.touched = new Uint32Array(index.fuzzyKeys.length);
  }

  /** Key indexes within `maxEdits` of the folded query (excluding none; callers dedupe). */
  match(query: string, queryLength: number, maxEdits: number, out: (keyIndex: number) => void): void {
    const ix = this.index;
    const grams = gramHashes(query);
    const threshold = Math.max(1, grams.length - 4 * maxEdits);
    const qcp = codePoints(query);
    let touchedCount = 0;
    const { counts, touched } = this;
    const lengths = ix.fuzzyLengths;
    for (const g of grams) {
      let lo = 0;
      let hi = ix.gramHashes.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (ix.gramHashes[mid]! < g) lo = mid + 1;
        else hi = mid;
      }
      if (lo >= ix.gramHashes.length || ix.gramHashes[lo] !== g) continue;
      const end = ix.gramOffsets[lo + 1]!;
      for (let p = ix.gramOffsets[lo]!; p < end; p++) {
        const f = ix.gramPostings[p]!;
        const d = lengths[f]! - queryLength;
        if (d > maxEdits || d < -maxEdits) continue;
        if (counts[f] === 0) touched[touchedCount++] = f;
        if (counts[f]! < 255) counts[f]!++;
      }
    }
    for (let t = 0; t < touchedCount; t++) {
      const f = touched[t]!;
      if (counts[f]! >= threshold) {
        const k = ix.fuzzyKeys[f]!;
        if (osaDistanceWithin(qcp, codePoints(ix.key(k)), maxEdits)) out(k);
      }
      counts[f] = 0;
    }
  }
}
