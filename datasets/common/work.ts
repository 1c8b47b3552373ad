/**
 * Long computations that must not hold the event loop: the server opens a new release while it
 * answers requests, and one synchronous second of index building stalls every answer in flight.
 * Such a computation is written once, as a generator that `yield`s between units of work (every
 * few thousand items); `finishNow` runs it in one go (the pipeline, tests, benches), and
 * `finishInSlices` gives the event loop a turn whenever `sliceMs` have passed (a server's loader).
 */
export type Work<T> = Generator<undefined, T, undefined>;

export function finishNow<T>(work: Work<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** Runs `work`, letting the event loop run pending I/O (requests) every `sliceMs` (default 4 ms). */
export async function finishInSlices<T>(work: Work<T>, sliceMs = 4): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}

/** CRC-32 of `bytes` computed a mebibyte at a time (node:zlib's crc32 takes ~1 ms per MiB). */
export function* crc32Work(bytes: Uint8Array, crc32: (data: Uint8Array, value: number) => number): Work<number> {
  let crc = 0;
  for (let at = 0; at < bytes.byteLength; at += 1 << 20) {
    crc = crc32(bytes.subarray(at, Math.min(bytes.byteLength, at + (1 << 20))), crc);
    yield;
  }
  return crc >>> 0;
}
