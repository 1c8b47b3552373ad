/**
 * Deletion neighbourhoods for typo matching (the SymSpell idea): two strings are within `d` edits
 * only if deleting at most `d` characters from each can make them equal. We index, for each
 * typo-eligible key, the hashes of every variant of its first TYPO_PREFIX code points with up to
 * 2 deletions (1 for keys under 6 code points, which no 2-edit query can reach); a query looks up
 * the variants of its own prefix and verifies the candidates with the real edit distance.
 * Cutting at a prefix bounds the variants per key (at most 1 + 7 + 21) without losing a match:
 * an edit near the cut shifts characters out of one window, and deleting them from the other
 * window's end meets it. Hashes are FNV-1a over code points; the index keeps each entry's window
 * and key length (capped at 255) beside its hash, sorted so that a query reads one run per
 * variant and keeps the lengths within its edit budget: long shared prefixes ("sankt ...",
 * "san ...") of other lengths do not flood it.
 * Keys longer than the window are indexed twice, by their first and by their last TYPO_PREFIX
 * code points (the argument is the same read backwards); a candidate must match both windows,
 * which keeps names with long shared beginnings ("santa maria de ...") from flooding the check.
 * A variant's hash is two halves (FORMAT.md "Variant entry"): the top 16 bits hash its first
 * GROUP_CODE_POINTS code points (its group), the low 16 bits the whole variant. The index sorts by
 * hash, so a group's entries lie together, and most of a query window's variants share a few
 * groups (the 22 variants of "berlin" with up to 2 deletions fall in 10 groups, 7 of them in
 * "ber"): their entries come from a few reads rather than one read a variant. A collision only
 * adds a candidate.
 */

export const TYPO_PREFIX = 7;

export type TypoWindow = "prefix" | "suffix";

/** Code points of a variant's beginning that its hash's top half stands for (its group). */
export const GROUP_CODE_POINTS = 3;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * The hash of the window's variant without positions skipA and skipB: the top 16 bits of FNV-1a
 * over its first GROUP_CODE_POINTS code points, then the top 16 bits of FNV-1a over all of them
 * (FNV-1a's low bits mix poorly: a product's low bits depend only on its factors' low bits).
 */
function hashSkipping(cps: readonly number[], skipA: number, skipB: number): number {
  let whole = FNV_OFFSET;
  let group = FNV_OFFSET;
  let kept = 0;
  for (let i = 0; i < cps.length; i++) {
    if (i === skipA || i === skipB) continue;
    whole = Math.imul(whole ^ cps[i]!, FNV_PRIME) >>> 0;
    if (kept++ < GROUP_CODE_POINTS) group = whole;
  }
  return ((group & 0xffff0000) | (whole >>> 16)) >>> 0;
}

/** The length a key is bucketed under (code points, capped). */
export function lengthTag(length: number): number {
  return Math.min(255, length);
}

/**
 * Distinct hashes of the ≤ maxDeletes deletion variants of the key's window (the index's and the
 * query's alike).
 */
export function rawVariantHashes(key: string, maxDeletes: number, window: TypoWindow): number[] {
  return [...new Set(variantHashesByDeletions(key, maxDeletes, window).flat())];
}

/**
 * The hashes of the window's deletion variants by number of deletions: [d] holds the distinct
 * hashes of the variants with d deletions (d = 0..maxDeletes), each of window length - d code points.
 */
export function variantHashesByDeletions(key: string, maxDeletes: number, window: TypoWindow): number[][] {
  const all: number[] = [];
  for (const ch of key) all.push(ch.codePointAt(0)!);
  const cps = window === "prefix" ? all.slice(0, TYPO_PREFIX) : all.slice(Math.max(0, all.length - TYPO_PREFIX));
  const n = cps.length;
  const out: number[][] = [[hashSkipping(cps, -1, -1)]];
  if (maxDeletes >= 1) {
    const one = new Set<number>();
    for (let i = 0; i < n; i++) one.add(hashSkipping(cps, i, -1));
    out.push([...one]);
  }
  if (maxDeletes >= 2) {
    const two = new Set<number>();
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) two.add(hashSkipping(cps, i, j));
    out.push([...two]);
  }
  return out;
}

/** Deletions indexed for a key of this many code points (see the module comment). */
export function indexedDeletions(length: number): number {
  return length >= 6 ? 2 : 1;
}
