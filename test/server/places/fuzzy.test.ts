/**
 * The typo matcher over the embedded gazetteer's index read where it lies: a variant's entries
 * for every key length lie together, sorted by (hash, window, length), the variants of one group
 * (their first three letters) come from one read, and the
 * matcher finds keys within the edit budget through them: a transposition, a deletion and an
 * insertion of real names (cities500: Xianyang, Kagoshima), and nothing for a text far from any
 * name. That typo matches rank as they should: search.test.ts and ranking.test.ts.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATASETS } from "../../../datasets/catalog.ts";
import { rawVariantHashes } from "../../../datasets/places/deletions.ts";
import { codePointLength } from "../../../datasets/places/fold.ts";
import { openArtifactFile } from "../../../datasets/artifact/envelope.ts";
import { openPlacesFile, PlacesIndex } from "../../../datasets/places/index-reader.ts";
import { groupOf } from "../../../datasets/places/variants.ts";
import { TYPO_RECORD_HEAD } from "../../../datasets/places/index-format.ts";
import { DIRECT_PENDING, FuzzyMatcher } from "../../../server/places/fuzzy.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";

let index: PlacesIndex;
beforeAll(async () => {
  index = openPlacesFile(path.join(await defaultDatasetDir("places"), DATASETS.places.file)).index;
}, 600_000);
afterAll(() => index?.close());

const decoder = new TextDecoder();

/** The same index over a source that counts its reads (those made after opening). */
function countingIndex(): { index: PlacesIndex; reads: () => number } {
  let n = 0;
  const { index: counted } = openArtifactFile(index.file, DATASETS.places, (source, metadata) =>
    PlacesIndex.open({ read: (offset, length) => (n++, source.read(offset, length)), close: () => source.close?.() }, metadata, index.file),
  );
  const atOpen = n;
  return { index: counted, reads: () => n - atOpen };
}

function typoKeys(query: string, maxEdits: number, directPending = DIRECT_PENDING): Map<string, number> {
  const found = new Map<string, number>();
  for (const { key, edits } of new FuzzyMatcher(index, directPending).match(query, codePointLength(query), maxEdits)) found.set(decoder.decode(key.bytes), edits);
  return found;
}

/**
 * Every typo key within `maxEdits` of the query, by a scan of all the records and a distance
 * written here (optimal string alignment: insertions, deletions, substitutions and swaps of
 * neighbours count 1, over code points): 1 when within one edit, else `maxEdits`.
 */
function scannedTypoKeys(query: string, maxEdits: number): Map<string, number> {
  const q = [...query];
  const distance = (k: string[]): number => {
    const rows = Array.from({ length: q.length + 1 }, (_, i) => Array.from({ length: k.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
    for (let i = 1; i <= q.length; i++) {
      for (let j = 1; j <= k.length; j++) {
        const cost = q[i - 1] === k[j - 1] ? 0 : 1;
        let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
        if (i > 1 && j > 1 && q[i - 1] === k[j - 2] && q[i - 2] === k[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
        rows[i]![j] = d;
      }
    }
    return rows[q.length]![k.length]!;
  };
  const found = new Map<string, number>();
  let offset = 0;
  for (let n = 0; n < index.typoKeyCount; n++) {
    const [record] = index.typoKeys([offset]);
    offset += TYPO_RECORD_HEAD + record!.bytes.byteLength;
    const key = [...decoder.decode(record!.bytes)];
    if (Math.abs(key.length - q.length) > maxEdits) continue;
    const d = distance(key);
    if (d <= maxEdits) found.set(key.join(""), d <= 1 ? 1 : maxEdits);
  }
  return found;
}

/** The distinct strings made by deleting up to `deletes` characters of a word (by hand, not through the index's code). */
function deletionVariants(word: string, deletes: number): string[] {
  const out = new Set([word]);
  if (deletes >= 1) for (let i = 0; i < word.length; i++) out.add(word.slice(0, i) + word.slice(i + 1));
  if (deletes >= 2) for (const one of [...out]) for (let i = 0; i < one.length; i++) out.add(one.slice(0, i) + one.slice(i + 1));
  return [...out];
}

describe("variant entries", () => {
  it("keep a hash's entries together, sorted by window then length", () => {
    let runs = 0;
    for (const name of ["xianyang", "kagoshima", "berlin", "san jose", "mumbai"]) {
      for (const window of ["prefix", "suffix"] as const) {
        const hashes = rawVariantHashes(name, 2, window);
        const entries = index.variantEntries(hashes);
        hashes.forEach((h, i) => {
          const words = entries[i]!;
          let previous = -1;
          for (let p = 0; p < words.length / 2; p++) {
            const low = words[2 * p]! & 0xffff;
            if (low !== (h & 0xffff)) continue;
            const order = (words[2 * p]! >>> 24) * 256 + ((words[2 * p]! >>> 16) & 0xff);
            expect(order).toBeGreaterThanOrEqual(previous);
            previous = order;
          }
          if (previous >= 0) runs++;
        });
      }
    }
    expect(runs).toBeGreaterThan(20);
  });

  it("group the variants by their first three letters", () => {
    // "berlin" with up to 2 deletions: 22 strings beginning in 10 ways (the first three of the
    // letters kept among b-e-r-l-i: ber, bel, brl, erl, bei, bri, eri, bli, eli, rli).
    const variants = deletionVariants("berlin", 2);
    expect(variants).toHaveLength(22);
    const beginnings = new Set(variants.map((v) => v.slice(0, 3)));
    expect([...beginnings].sort()).toEqual(["bei", "bel", "ber", "bli", "bri", "brl", "eli", "eri", "erl", "rli"]);
    const hashes = rawVariantHashes("berlin", 2, "prefix");
    expect(hashes).toHaveLength(22);
    expect(new Set(hashes.map(groupOf)).size).toBe(10);
    // Each variant's group is the one of its first three letters taken as a word of their own.
    for (const v of variants) {
      const [whole] = rawVariantHashes(v, 0, "prefix");
      const [beginning] = rawVariantHashes(v.slice(0, 3), 0, "prefix");
      expect(groupOf(whole!)).toBe(groupOf(beginning!));
    }
  });

  it("come from at most one read a group when the groups are small, fewer reads than variants when not", () => {
    const { index: counted, reads } = countingIndex();
    // "mumbai": 21 variants in 9 groups (m-u-m-b-a: mum, mub, mmb, umb, mua, mma, uma, mba, uba).
    const mumbai = rawVariantHashes("mumbai", 2, "prefix");
    expect(mumbai).toHaveLength(21);
    let before = reads();
    counted.variantEntries(mumbai);
    expect(reads() - before).toBeGreaterThan(0);
    expect(reads() - before).toBeLessThanOrEqual(9);
    // "berlin": many names begin "ber" or "bel"; their variants' blocks lie apart.
    const berlin = rawVariantHashes("berlin", 2, "prefix");
    before = reads();
    const entries = counted.variantEntries(berlin);
    expect(reads() - before).toBeLessThan(berlin.length);
    // The same entries as the file-backed index gives one hash at a time.
    berlin.forEach((h, i) => expect([...entries[i]!]).toEqual([...index.variantEntries([h])[0]!]));
    counted.close();
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

  it("finds every key within the budget, whether long keys are checked directly or through their last window", () => {
    // Long names behind common beginnings ("santa cruz de ...", "san rafael ...") leave hundreds of
    // keys pending after the first window; "kagoshmaa" a few. Each query's answer is the scan's,
    // with every pending key checked directly (Infinity) and with none (0: the last window's lookups).
    for (const query of ["santa cruz de la sreos", "san rafael tenanyecca", "saint martin de hnix", "kagoshmaa", "trossignen"]) {
      const scanned = scannedTypoKeys(query, 2);
      expect(scanned.size, query).toBeGreaterThan(0);
      expect(typoKeys(query, 2, Infinity), query).toEqual(scanned);
      expect(typoKeys(query, 2, 0), query).toEqual(scanned);
      expect(typoKeys(query, 2), query).toEqual(scanned);
    }
  }, 60_000);
});
