/**
 * Trigram hashing for the typo index: each folded key is padded with two boundary marks on each
 * side and cut into overlapping three-code-point grams, hashed to uint32 (FNV-1a). Writer and
 * reader must hash identically; a collision only adds candidates, which are then verified.
 */

const PAD = 0x1;

/** Distinct gram hashes of a folded key, in first-seen order. */
export function gramHashes(key: string): number[] {
  const cps: number[] = [PAD, PAD];
  for (const ch of key) cps.push(ch.codePointAt(0)!);
  cps.push(PAD, PAD);
  const seen = new Set<number>();
  const out: number[] = [];
  for (let i = 0; i + 3 <= cps.length; i++) {
    let h = 0x811c9dc5;
    for (let j = i; j < i + 3; j++) {
      h = Math.imul(h ^ cps[j]!, 0x01000193) >>> 0;
    }
    if (!seen.has(h)) {
      seen.add(h);
      out.push(h);
    }
  }
  return out;
}
