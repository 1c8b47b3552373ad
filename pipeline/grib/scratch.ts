/**
 * One reusable Float64Array for the integer values of the field being decoded: a 0.25 degree
 * field needs 8 MB, and allocating (and zeroing) that per field costs more than unpacking it.
 * decodeField consumes the scratch values before returning, and JavaScript runs one decode at a
 * time per thread, so one buffer per module instance is enough. It keeps the largest size seen.
 */
let buffer = new Float64Array(0);

/** `n` elements of the scratch buffer, with arbitrary content; valid until the next call. */
export function scratchValues(n: number): Float64Array {
  if (buffer.length < n) buffer = new Float64Array(Math.max(n, Math.ceil(buffer.length * 1.5)));
  return buffer.subarray(0, n);
}
