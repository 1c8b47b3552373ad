/**
 * Typo matching over the deletion-neighbourhood index (datasets/places/deletions.ts): for each
 * key length within the edit budget, the query's window variants with up to `maxEdits`
 * deletions are looked up in the buckets of their hash (a few entries each, see `fine`). Keys
 * longer than the window must match on both their first and their last window; each surviving
 * candidate is checked with the bag distance (a cheap lower bound) and then the bounded edit
 * distance (transpositions count 1). No scan of the keys.
 */
import { rawVariantHashes, tagVariantHash, TYPO_PREFIX, type TypoWindow } from "../../datasets/places/deletions.ts";
import type { PlacesIndex } from "../../datasets/places/index-reader.ts";
import { finishNow, type Work } from "../../datasets/common/work.ts";
import { BoundedEditDistance, codePoints, decodeCodePoints } from "./edit-distance.ts";

/** A typo match: the key's index, its edit distance, and whether its first character is the query's. */
export type TypoMatch = (keyIndex: number, edits: number, sameFirst: boolean) => void;

const UNSEEN = 0;
/** Long key found by its first window, waiting for its last window. */
const PENDING = 1;
const DONE = 2;

export class FuzzyMatcher {
  private readonly state: Uint8Array;
  private readonly touched: Uint32Array;
  private touchedCount = 0;
  private readonly distance = new BoundedEditDistance();
  /** Code points of the candidate being verified (keys are capped at 255 in the length filter). */
  private readonly candidate = new Int32Array(512);
  /** Query character counts by (code point & 255), for the bag-distance filter. */
  private readonly bag = new Int16Array(256);
  private qcp: number[] = [];
  private maxEdits = 0;

  /**
   * The index's directory refined from the top 16 to the top FINE_BITS bits of the variant hash:
   * variantLow16[fine[t], fine[t + 1]) are the hashes whose top FINE_BITS bits are t. With 7.5
   * million variants (the embedded default) a 16-bit bucket holds ~115 of them, whose binary
   * search touched several cache lines for each of the ~300 variants a 2-edit query looks up; a
   * 20-bit bucket holds ~7, one line. Built at load (one pass, 4 MiB).
   */
  private readonly fine: Uint32Array;
  /** Scratch of `lookup`: per variant, its bucket's start and its tagged hash. */
  private found: Uint32Array = new Uint32Array(128);
  /** Scratch of `lookup`: the matching variants' positions, then their postings. */
  private hits: Uint32Array = new Uint32Array(1024);

  /** `fine` is refineDirectory's result (computed here when not given). */
  constructor(private readonly index: PlacesIndex, fine?: Uint32Array) {
    this.state = new Uint8Array(index.fuzzyKeys.length);
    this.touched = new Uint32Array(index.fuzzyKeys.length);
    this.fine = fine ?? refineDirectory(index.variantDirectory, index.variantLow16);
  }

  /** The matcher as work that yields while it refines the directory (datasets/common/work.ts). */
  static *build(index: PlacesIndex): Work<FuzzyMatcher> {
    return new FuzzyMatcher(index, yield* refineDirectoryWork(index.variantDirectory, index.variantLow16));
  }

  /**
   * Calls `out` with each key index within `maxEdits` of the folded query, its distance (1 when
   * within one edit, else `maxEdits`; the exact key itself may come with 1) and whether the key
   * starts with the query's first character.
   */
  match(query: string, queryLength: number, maxEdits: number, out: TypoMatch): void {
    this.qcp = codePoints(query);
    this.maxEdits = maxEdits;
    for (const c of this.qcp) this.bag[c & 255]!++;
    const lo = Math.max(1, queryLength - maxEdits);
    const hi = queryLength + maxEdits;
    const prefixVariants = rawVariantHashes(query, maxEdits, "prefix");
    const suffixVariants = hi > TYPO_PREFIX ? rawVariantHashes(query, maxEdits, "suffix") : [];
    try {
      for (let len = lo; len <= hi; len++) {
        const long = len > TYPO_PREFIX;
        let pending = 0;
        this.lookup(prefixVariants, len, "prefix", (f) => {
          if (!long) this.verify(f, out);
          else if (this.state[f] === UNSEEN) {
            this.setState(f, PENDING);
            pending++;
          }
        });
        // The suffix window only confirms candidates of the prefix window: none, nothing to confirm.
        if (long && pending > 0) {
          this.lookup(suffixVariants, len, "suffix", (f) => {
            if (this.state[f] === PENDING) this.verify(f, out);
          });
        }
      }
    } finally {
      for (let t = 0; t < this.touchedCount; t++) this.state[this.touched[t]!] = UNSEEN;
      this.touchedCount = 0;
      for (const c of this.qcp) this.bag[c & 255]!--;
    }
  }

  private lookup(variants: readonly number[], length: number, window: TypoWindow, visit: (fuzzyOrdinal: number) => void): void {
    const ix = this.index;
    const low = ix.variantLow16;
    const fine = this.fine;
    const n = variants.length;
    const found = this.found.length >= 2 * n ? this.found : (this.found = new Uint32Array(2 * n));
    // In passes: every variant's bucket start, then the scans of the buckets, then the postings of
    // the matches, then the visits. The loads of one pass do not depend on each other, so their
    // cache misses overlap instead of queueing (search 62 -> 54 µs on the bench's names).
    for (let k = 0; k < n; k++) {
      const h = tagVariantHash(variants[k]!, length, window);
      found[2 * k] = fine[h >>> FINE_SHIFT]!;
      found[2 * k + 1] = h;
    }
    let hits = 0;
    for (let k = 0; k < n; k++) {
      const h = found[2 * k + 1]!;
      const l = h & 0xffff;
      const end = fine[(h >>> FINE_SHIFT) + 1]!;
      // A bucket holds a few hashes, in order: a scan reads one cache line.
      let p = found[2 * k]!;
      while (p < end && low[p]! < l) p++;
      for (; p < end && low[p] === l; p++) {
        if (hits === this.hits.length) this.hits = growCopy(this.hits);
        this.hits[hits++] = p;
      }
    }
    const postings = ix.variantPostings;
    for (let k = 0; k < hits; k++) this.hits[k] = postings[this.hits[k]!]!;
    for (let k = 0; k < hits; k++) visit(this.hits[k]!);
  }

  private setState(f: number, s: number): void {
    if (this.state[f] === UNSEEN) this.touched[this.touchedCount++] = f;
    if (this.state[f]! < s) this.state[f] = s;
  }

  private verify(f: number, out: TypoMatch): void {
    if (this.state[f] === DONE) return;
    this.setState(f, DONE);
    const ix = this.index;
    const d = ix.fuzzyLengths[f]! - this.qcp.length;
    if (d > this.maxEdits || d < -this.maxEdits) return;
    const k = ix.fuzzyKeys[f]!;
    const m = decodeCodePoints(ix.keyBytes, ix.keyOffsets[k]!, ix.keyOffsets[k + 1]!, this.candidate);
    if (!this.bagDistanceWithin(m) || !this.distance.within(this.qcp, this.qcp.length, this.candidate, m, this.maxEdits)) return;
    out(k, this.maxEdits > 1 && !this.distance.within(this.qcp, this.qcp.length, this.candidate, m, 1) ? this.maxEdits : 1, this.candidate[0] === this.qcp[0]);
  }

  /**
   * Bag distance (characters of one string missing from the other, the larger side) is a lower
   * bound of the edit distance; bucketing code points by their low byte only merges counts, so the
   * bound still holds.
   */
  private bagDistanceWithin(m: number): boolean {
    const { bag, candidate } = this;
    let missingFromQuery = 0;
    for (let i = 0; i < m; i++) if (bag[candidate[i]! & 255]!-- <= 0) missingFromQuery++;
    for (let i = 0; i < m; i++) bag[candidate[i]! & 255]!++;
    const missingFromCandidate = this.qcp.length - (m - missingFromQuery);
    return Math.max(missingFromQuery, missingFromCandidate) <= this.maxEdits;
  }
}

const FINE_BITS = 20;
const FINE_SHIFT = 32 - FINE_BITS;

/** The FINE_BITS directory of the variant hashes, from the 16-bit one and the low 16 bits. */
export function refineDirectory(directory: Uint32Array, low16: Uint16Array): Uint32Array {
  return finishNow(refineDirectoryWork(directory, low16));
}

function* refineDirectoryWork(directory: Uint32Array, low16: Uint16Array): Work<Uint32Array> {
  const fine = new Uint32Array(2 ** FINE_BITS + 1);
  const extra = FINE_BITS - 16;
  // Count the hashes of each fine bucket, then turn the counts into start offsets.
  for (let top = 0; top < 65536; top++) {
    if ((top & 1023) === 1023) yield;
    const end = directory[top + 1]!;
    for (let p = directory[top]!; p < end; p++) fine[((top << extra) | (low16[p]! >>> (16 - extra))) + 1]!++;
  }
  for (let t = 1; t < fine.length; t++) fine[t]! += fine[t - 1]!;
  return fine;
}

function growCopy(a: Uint32Array): Uint32Array {
  const b = new Uint32Array(2 * a.length);
  b.set(a);
  return b;
}
