/**
 * Whole answers of the `instant` policy (reverse geocoding, lookup by id, weather by id), kept
 * for the second they were computed in, per worker.
 *
 * Why: those answers carry the request's instant, but only to the second (timeFormatted and
 * UNIXTimestamp; the current forecast hour, the max-age and the weak ETag change more slowly), so
 * within one second an answer is a function of the normalized query and the loaded data, like the
 * answers of response-cache.ts. A place asked for by many clients at once (a popular city's
 * weather) is then computed once per second instead of once per request: a hit costs 2.4-3.1 µs
 * in process against 4.5-8.5 for the answer built from its kept parts (docs/http.md).
 *
 * - Scope: one second. When a request of a later second arrives, every entry is dropped (none
 *   can be sent again); an answer computed for a second that has passed is not stored.
 * - Admission: an answer is stored only when its query was already asked for in the same second
 *   (the first asking records the key alone). So a stream of queries that never repeat pays a Set
 *   insertion, not a copy of each body that would never be read.
 * - Validity: one dataset generation, as response-cache.ts.
 * - Bound: `maxBytes` of bodies and their compressed copies; once an answer does not fit, none
 *   is admitted until the second turns (so no body is copied only to be refused). The keys
 *   recorded for admission are bounded by count (MAX_SEEN_KEYS), outside `maxBytes`.
 */
import type { Encoding } from "./respond.ts";
import { ENTRY_OVERHEAD_BYTES, type CachedAnswer } from "./response-cache.ts";

/**
 * The share of GEODATA_RESPONSE_CACHE_MB this cache takes (1/16: 4 MiB of the default 64): a
 * second's worth of the answers asked for more than once, 1-20 KB each, fits many times over.
 */
export const SECOND_CACHE_SHARE = 16;

/** Keys recorded for admission in one second; past it the record starts again (admission only comes later). */
const MAX_SEEN_KEYS = 65_536;

export class SecondCache {
  private readonly answers = new Map<string, CachedAnswer>();
  private readonly seen = new Set<string>();
  private bytes = 0;
  /** An answer was refused for the bound in this second: none is admitted until it turns. */
  private full = false;
  private second = -1;
  private generation = -1;
  hits = 0;
  misses = 0;

  constructor(readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** Answers kept for the current second. */
  get size(): number {
    return this.answers.size;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  /** Moves to `second` and `generation` when either is newer, dropping everything kept. False for an older one. */
  private sync(second: number, generation: number): boolean {
    if (second === this.second && generation === this.generation) return true;
    if (second < this.second || generation < this.generation) return false;
    this.answers.clear();
    this.seen.clear();
    this.bytes = 0;
    this.full = false;
    this.second = second;
    this.generation = generation;
    return true;
  }

  /** The answer kept for `key` in this second, if any; on a miss, `admits` says whether to keep the one computed. */
  get(key: string, second: number, generation: number): CachedAnswer | undefined {
    if (!this.enabled || !this.sync(second, generation)) return undefined;
    const hit = this.answers.get(key);
    if (hit !== undefined) {
      this.hits++;
      return hit;
    }
    this.misses++;
    return undefined;
  }

  /**
   * Whether an answer for `key`, about to be computed, is worth storing: true when the key was
   * already asked for in this second. Records the key either way.
   */
  admits(key: string, second: number, generation: number): boolean {
    if (!this.enabled || !this.sync(second, generation) || this.full) return false;
    if (this.seen.has(key)) return true;
    if (this.seen.size >= MAX_SEEN_KEYS) this.seen.clear();
    this.seen.add(key);
    return false;
  }

  /** Stores an answer computed for `second`; dropped if that second or generation has passed, or if it does not fit. */
  set(key: string, second: number, generation: number, entry: CachedAnswer): void {
    if (!this.enabled || !this.sync(second, generation) || this.answers.has(key)) return;
    let cost = key.length + entry.body.byteLength + ENTRY_OVERHEAD_BYTES;
    for (const copy of Object.values(entry.encoded)) cost += copy.byteLength;
    if (this.bytes + cost > this.maxBytes) {
      this.full = true;
      return;
    }
    this.answers.set(key, entry);
    this.bytes += cost;
  }

  /** Records a compressed copy made for a kept answer, if the bound allows (else it is sent and not kept). */
  addEncoding(key: string, entry: CachedAnswer, encoding: Exclude<Encoding, "identity">, body: Buffer): void {
    if (entry.encoded[encoding] !== undefined || this.answers.get(key) !== entry) return;
    if (this.bytes + body.byteLength > this.maxBytes) return;
    entry.encoded[encoding] = body;
    this.bytes += body.byteLength;
  }
}
