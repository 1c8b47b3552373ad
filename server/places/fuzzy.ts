/**
 * Typo matching over the deletion-neighbourhood index (datasets/places/deletions.ts): the query's
 * window variants with up to `maxEdits` deletions are looked up in the index's variant blocks (a
 * variant's entries for every key length lie together, and the lengths within the edit budget are
 * kept; the variants of one group are one read, datasets/places/variants.ts). Keys longer than
 * the window must match on both their first and their last window; each surviving candidate's key
 * (the typo key records are held in memory) is checked with the bag distance (a cheap lower bound)
 * and then the bounded edit distance (transpositions count 1). No scan of the keys.
 */
import { lengthTag, TYPO_PREFIX, variantHashesByDeletions } from "../../datasets/places/deletions.ts";
import type { PlacesIndex, TypoKey } from "../../datasets/places/index-reader.ts";
import { BoundedEditDistance, codePoints, decodeCodePoints } from "./edit-distance.ts";

/** A typo match: the key's record, its edit distance, and whether its first character is the query's. */
export interface TypoMatch {
  key: TypoKey;
  edits: number;
  sameFirst: boolean;
}

/**
 * Long keys found by their first window up to which they are verified without the last window's
 * lookups. A direct check is a few hundred nanoseconds (the keys are in memory, and most pending
 * keys fail the length test before any distance); the last window's lookups are about ten reads
 * (15-20 µs). Measured over the HTTP bench's search mix in process (`DIRECT_PENDING` 24, 64, 128,
 * 160, 256, 400, unbounded; alternated): 64-400 alike and 10-20 % cheaper than 24; unbounded as
 * cheap on average but its p99 half as high again (long names behind a common beginning: "Santa
 * Cruz de la Serós" 1.1 ms).
 */
export const DIRECT_PENDING = 128;
/** Long key found by its first window, waiting for its last window. */
const PENDING = 1;
const DONE = 2;

export class FuzzyMatcher {
  /** Per typo record offset met by the current query: PENDING or DONE. */
  private readonly state = new Map<number, number>();
  private readonly distance = new BoundedEditDistance();
  /** Code points of the candidate being verified (keys are capped at 255 in the length filter). */
  private readonly candidate = new Int32Array(512);
  /** Query character counts by (code point & 255), for the bag-distance filter. */
  private readonly bag = new Int16Array(256);
  private qcp: number[] = [];
  private maxEdits = 0;
  /** The candidates of the current query: typo record offsets. */
  private records: number[] = [];

  /** `directPending`: DIRECT_PENDING (tests give 0 and Infinity to take each path). */
  constructor(
    private readonly index: PlacesIndex,
    private readonly directPending = DIRECT_PENDING,
  ) {}

  /**
   * The typo keys within `maxEdits` of the folded query, each with its distance (1 when within one
   * edit, else `maxEdits`; the exact key itself may come with 1) and whether the key starts with
   * the query's first character.
   */
  match(query: string, queryLength: number, maxEdits: number): TypoMatch[] {
    this.qcp = codePoints(query);
    this.maxEdits = maxEdits;
    for (const c of this.qcp) this.bag[c & 255]!++;
    const lo = lengthTag(Math.max(1, queryLength - maxEdits));
    const hi = lengthTag(queryLength + maxEdits);
    try {
      const pending: number[] = [];
      // A variant's entries hold the keys of every length, adjacent, so that the lengths within the
      // edit budget are one scan.
      this.lookup(variantHashesByDeletions(query, maxEdits, "prefix"), 0, lo, hi, (record, length) => {
        if (length <= TYPO_PREFIX) this.candidateOf(record, length);
        else if (!this.state.has(record)) {
          this.state.set(record, PENDING);
          pending.push(record, length);
        }
      });
      // The suffix window only confirms candidates of the prefix window: none, nothing to confirm.
      // A few are verified directly: every key within the edit budget matches both windows, so
      // the answer is the same, and checking their keys costs less than the suffix window's reads.
      if (pending.length <= 2 * this.directPending) {
        for (let i = 0; i < pending.length; i += 2) this.candidateOf(pending[i]!, pending[i + 1]!);
      } else {
        this.lookup(variantHashesByDeletions(query, maxEdits, "suffix"), 1, lo, hi, (record, length) => {
          if (this.state.get(record) === PENDING) this.candidateOf(record, length);
        });
      }
      return this.verify();
    } finally {
      this.state.clear();
      this.records = [];
      for (const c of this.qcp) this.bag[c & 255]!--;
    }
  }

  /**
   * Visits the typo records of the entries of the variants (by number of deletions, see
   * variantHashesByDeletions) in `window` (0 prefix, 1 suffix) with a length tag in [lo, hi]. A key
   * within the edit budget meets the query at a variant with at most `maxEdits` deletions on each
   * side (each edit costs each side at most one, a shift across the window's cut included): an
   * entry whose key needed more deletions to reach a variant is skipped unread, since the key's
   * fewer-deletion variants meet the query too. That cuts most 6- and 7-letter keys (indexed with
   * 2 deletions) out of the candidates of a 1-edit query.
   */
  private lookup(byDeletions: readonly number[][], window: number, lo: number, hi: number, visit: (record: number, length: number) => void): void {
    const windowLength = Math.min(TYPO_PREFIX, this.qcp.length);
    const hashes: number[] = [];
    const tops: number[] = [];
    for (let d = 0; d < byDeletions.length; d++) {
      // Key windows of up to variant length + maxEdits code points; a window is TYPO_PREFIX at most.
      const variantLength = windowLength - d;
      const top = variantLength + this.maxEdits >= TYPO_PREFIX ? hi : Math.min(hi, variantLength + this.maxEdits);
      if (top < lo) continue;
      for (const h of byDeletions[d]!) {
        hashes.push(h);
        tops.push(top);
      }
    }
    const entries = this.index.variantEntries(hashes);
    for (let i = 0; i < hashes.length; i++) visitEntries(entries[i]!, hashes[i]!, window, lo, tops[i]!, visit);
  }

  /** Takes a candidate once, when its length is within the edit budget. */
  private candidateOf(record: number, length: number): void {
    if (this.state.get(record) === DONE) return;
    this.state.set(record, DONE);
    const d = length - this.qcp.length;
    if (d > this.maxEdits || d < -this.maxEdits) return;
    this.records.push(record);
  }

  /** The candidates whose keys are within the edit budget. */
  private verify(): TypoMatch[] {
    const matches: TypoMatch[] = [];
    const keys = this.index.typoKeys(this.records);
    for (const key of keys) {
      const m = decodeCodePoints(key.bytes, 0, key.bytes.byteLength, this.candidate);
      if (!this.bagDistanceWithin(m) || !this.distance.within(this.qcp, this.qcp.length, this.candidate, m, this.maxEdits)) continue;
      const edits = this.maxEdits > 1 && !this.distance.within(this.qcp, this.qcp.length, this.candidate, m, 1) ? this.maxEdits : 1;
      matches.push({ key, edits, sameFirst: this.candidate[0] === this.qcp[0] });
    }
    return matches;
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

/** An entry's sort order within its group from its first word: (low 16 bits of the hash, window, length) as one number. */
function entryOrder(word: number): number {
  return (((word & 0xffff) << 16) | ((word >>> 24) << 8) | ((word >>> 16) & 0xff)) >>> 0;
}

/**
 * Visits the entries of the hash in `window` with a length tag in [lo, hi]: the words hold entries
 * of the hash's group sorted by (low 16 bits of the hash, window, length), so a binary search finds
 * the first and the rest follow.
 */
function visitEntries(words: Uint32Array, h: number, window: number, lo: number, hi: number, visit: (record: number, length: number) => void): void {
  const n = words.length >>> 1;
  const low = h & 0xffff;
  const first = ((low << 16) | (window << 8) | lo) >>> 0;
  const last = ((low << 16) | (window << 8) | hi) >>> 0;
  let p = 0;
  let end = n;
  while (p < end) {
    const mid = (p + end) >>> 1;
    if (entryOrder(words[2 * mid]!) < first) p = mid + 1;
    else end = mid;
  }
  for (; p < n && entryOrder(words[2 * p]!) <= last; p++) visit(words[2 * p + 1]!, (words[2 * p]! >>> 16) & 0xff);
}
