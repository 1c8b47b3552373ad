/**
 * FNV-1a, 32 bits, over a string's UTF-16 code units: a fast hash with no strength, for the ETag's
 * parameters part (cache.ts) and the response cache's admission filters (response-cache.ts).
 */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
