/**
 * mulberry32: a small, fast, seeded PRNG (32-bit state), so that benches, validation samples and
 * randomised tests draw the same inputs on every run and a failure can be replayed from its seed.
 * Returns floats in [0, 1).
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
