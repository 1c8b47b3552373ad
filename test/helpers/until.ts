/**
 * Waiting on a condition instead of sleeping a guessed time: `until` polls `check` until it gives
 * a value (anything but undefined or false) and fails, naming what it waited for, at the deadline.
 * `what` may be a function, called only on time-out, to add what was seen meanwhile (a child's
 * log, the last state read).
 */
export async function until<T>(what: string | (() => string), check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000, everyMs = 20): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === "string" ? what : what()}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
