/**
 * Arrays of numbers made per answer (the point's series, the slot and daily tables) are plain
 * arrays, not typed arrays: V8 gives a typed array of more than 64 bytes a backing store from
 * malloc, freed by the collector's sweep (about 1.3 µs each, measured alone), where a plain array
 * is one allocation in the young generation. The slot table of a 13-slot answer cost 44-48 µs with
 * typed arrays against 13 µs with these.
 */

/** `n` numbers, each `value`: an array of doubles from the start (NaN and fractions are written into it). */
export function numbers(n: number, value: number): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = value;
  return out;
}
