/**
 * The typo matcher over the embedded gazetteer's index read where it lies: a variant's bucket
 * holds its entries for every key length together, sorted by (hash, window, length), and the
 * matcher finds keys within the edit budget through them: a transposition, a deletion and an
 * insertion of real names (cities500: Xianyang, Kagoshima), and nothing for a text far from any
 * name. That typo matches rank as they should: search.test.ts and ranking.test.ts.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATASETS } from "../../../datasets/catalog.ts";
import { rawVariantHashes } from "../../../datasets/places/deletions.ts";
import { codePointLength } from "../../../datasets/places/fold.ts";
import { openPlacesFile, type PlacesIndex } from "../../../datasets/places/index-reader.ts";
import { FuzzyMatcher } from "../../../server/places/fuzzy.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";

let index: PlacesIndex;
beforeAll(async () => {
  index = openPlacesFile(path.join(await defaultDatasetDir("places"), DATASETS.places.file)).index;
}, 600_000);
afterAll(() => index?.close());

const decoder = new TextDecoder();

function typoKeys(query: string, maxEdits: number): Map<string, number> {
  const found = new Map<string, number>();
  for (const { key, edits } of new FuzzyMatcher(index).match(query, codePointLength(query), maxEdits)) found.set(decoder.decode(key.bytes), edits);
  return found;
}

describe("variant buckets", () => {
  it("keep a hash's entries together, sorted by window then length", () => {
    let runs = 0;
    for (const name of ["xianyang", "kagoshima", "berlin", "san jose", "mumbai"]) {
      for (const window of ["prefix", "suffix"] as const) {
        for (const h of rawVariantHashes(name, 2, window)) {
          const words = index.variantBucket(h);
          const bucket = new DataView(words.buffer, words.byteOffset, words.byteLength);
          const n = bucket.byteLength / 8;
          let previous = -1;
          for (let p = 0; p < n; p++) {
            const low = bucket.getUint16(8 * p, true);
            if (low !== (h & 0xffff)) continue;
            const order = bucket.getUint8(8 * p + 3) * 256 + bucket.getUint8(8 * p + 2);
            expect(order).toBeGreaterThanOrEqual(previous);
            previous = order;
          }
          if (previous >= 0) runs++;
        }
      }
    }
    expect(runs).toBeGreaterThan(20);
  });
});

describe("FuzzyMatcher", () => {
  it("finds the names one or two edits away", () => {
    // A swap (one edit), a deletion, an insertion.
    expect(typoKeys("xainyang", 2).get("xianyang")).toBe(1);
    expect(typoKeys("kagoshma", 2).get("kagoshima")).toBe(1);
    expect(typoKeys("kagoshimma", 2).get("kagoshima")).toBe(1);
    // Two edits away: a 2-edit budget finds it, a 1-edit budget does not.
    expect(typoKeys("kagoshmaa", 2).get("kagoshima")).toBe(2);
    expect(typoKeys("kagoshmaa", 1).has("kagoshima")).toBe(false);
  });

  it("finds nothing for a text far from every name", () => {
    expect(typoKeys("qqqqzzzzxx", 2).size).toBe(0);
  });
});
