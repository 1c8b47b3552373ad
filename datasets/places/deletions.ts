/**
 * Deletion neighbourhoods for typo matching (the SymSpell idea): two strings are within `d` edits
 * only if deleting at most `d` characters from each can make them equal. We index, for each
 * typo-eligible key, the hashes of every variant of its first TYPO_PREFIX code points with up to
 * 2 deletions (1 for keys under 6 code points, which no 2-edit query can reach); a query looks up
 * the variants of its own prefix and verifies the candidates with the real edit distance.
 * Cutting at a prefix bounds the variants per key (at most 1 + 7 + 21) without losing a match:
 * an edit near the cut shifts characters out of one window, and deleting them from the other
 * window's end meets it. Hashes are FNV-1a over code points, mixed with the full key's length
 * (capped at 255) so that a bucket holds only keys of one length: a query looks up the lengths
 * within its edit budget, and long shared prefixes ("sankt ...", "san ...") do not flood it.
 * Keys longer than the window are indexed twice, by their first and by their last TYPO_PREFIX
 * code points (the argument is the same read backwards); a candidate must match both windows,
 * which keeps names with long shared beginnings ("santa maria de ...") from flooding the check.
 * A collision only adds a candidate.
 */

export const TYPO_PREFIX = 7;

export type TypoWindow = "prefix" | "suffix";

const FNV_PRIME = 0x01000193;

/** FNV-1a of the window's code points without positions skipA and skipB (untagged). */
function hashSkipping(cps: readonly number[], skipA: number, skipB: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < cps.length; i++) {
    if (i === skipA || i === skipB) continue;
    h = Math.imul(h ^ cps[i]!, FNV_PRIME) >>> 0;
  }
  return h;
}

/** The length a key is bucketed under (code points, capped). */
export function lengthTag(length: number): number {
  return Math.min(255, length);
}

/**
 * Distinct untagged hashes of the ≤ maxDeletes deletion variants of the key's window. Tagging
 * (below) is a bijection for a given bucket, so these can be computed once per query and tagged
 * for each candidate length.
 */
export function rawVariantHashes(key: string, maxDeletes: number, window: TypoWindow): number[] {
  const all: number[] = [];
  for (const ch of key) all.push(ch.codePointAt(0)!);
  const cps = window === "prefix" ? all.slice(0, TYPO_PREFIX) : all.slice(Math.max(0, all.length - TYPO_PREFIX));
  const out = new Set<number>([hashSkipping(cps, -1, -1)]);
  const n = cps.length;
  if (maxDeletes >= 1) for (let i = 0; i < n; i++) out.add(hashSkipping(cps, i, -1));
  if (maxDeletes >= 2) for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) out.add(hashSkipping(cps, i, j));
  return [...out];
}

/** Places an untagged variant hash in the bucket of keys of `length` code points and the window. */
export function tagVariantHash(raw: number, length: number, window: TypoWindow): number {
  // The suffix window's hashes live in their own space (bit 0x200 of the tag).
  const tag = lengthTag(length) | (window === "suffix" ? 0x200 : 0);
  return Math.imul(raw ^ (0x1000 | tag), FNV_PRIME) >>> 0;
}

/**
 * Distinct hashes of the ≤ maxDeletes deletion variants of the key's window, in the bucket of
 * keys of `length` code points (the key's own length when indexing).
 */
export function deletionHashes(key: string, maxDeletes: number, length: number, window: TypoWindow = "prefix"): number[] {
  return rawVariantHashes(key, maxDeletes, window).map((raw) => tagVariantHash(raw, length, window));
}

/** Deletions indexed for a key of this many code points (see the module comment). */
export function indexedDeletions(length: number): number {
  return length >= 6 ? 2 : 1;
}
