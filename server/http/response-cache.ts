/**
 * A bounded, in-memory cache of whole successful answers, per worker, for the endpoints whose
 * answer is a function of the normalized query and the loaded data alone (cache policies
 * `release`, `observations` and `forecast`, server/api/cache-policy.ts): place search, elevation,
 * METAR, SYNOP and point weather. Answers carrying the request's instant (`instant`) are never
 * kept: their bytes change every second.
 *
 * - Key: the route, the bucket of the policy (for `forecast` the UTC quarter hour) and the parsed
 *   parameters' JSON (caching.ts), so `lat=52.50` and `lat=52.5` share an entry.
 * - Admission: an answer is kept on the second request for its key within the window of the last
 *   ADMISSION_WINDOW_KEYS to 2x that many keys seen once (SecondSight). A mix that never repeats
 *   then costs a set lookup per request instead of filling the cache, copying every body and
 *   making the collector move them (docs/http.md "Response cache").
 * - Validity: an entry belongs to one dataset generation (DatasetRegistry.generation); any load,
 *   reload or failure of a dataset empties the cache, so an answer never outlives its data.
 * - Encodings: the identity body is stored, and each content coding (br, gzip) is compressed
 *   once, on the first request that asks for it, and kept beside it (counted against the bound).
 * - Bound: GEODATA_RESPONSE_CACHE_MB of bodies, on the shared bounded cache (api/bounded-cache.ts,
 *   CLOCK eviction); one answer never takes more than an eighth of it. 0 turns the cache off.
 */
import { BoundedCache } from "../api/bounded-cache.ts";
import type { Body } from "./exchange.ts";

export interface CachedAnswer {
  /** The answer's headers, its identity ETag among them (Cache-Control is set per request). */
  headers: Readonly<Record<string, string>>;
  /** The identity bytes and the compressed copies made since. */
  body: Body & { bytes: Buffer };
}

/** Fixed cost of an entry beyond its bodies (key, objects, headers), bytes, for the bound. */
export const ENTRY_OVERHEAD_BYTES = 512;

/** Keys seen once are remembered for between this many and twice this many first sightings. */
export const ADMISSION_WINDOW_KEYS = 16_384;

/**
 * Remembers the keys seen once, in two generations of sets: a key is admitted when it is seen
 * again while either holds it. The newer set becomes the older when it is full.
 */
export class SecondSight {
  private newer = new Set<string>();
  private older = new Set<string>();

  constructor(private readonly windowKeys = ADMISSION_WINDOW_KEYS) {}

  /** True when `key` was seen within the window (and is admitted); else remembers it. */
  seenBefore(key: string): boolean {
    if (this.newer.has(key) || this.older.has(key)) return true;
    if (this.newer.size >= this.windowKeys) {
      this.older = this.newer;
      this.newer = new Set();
    }
    this.newer.add(key);
    return false;
  }
}

export class ResponseCache {
  private readonly cache: BoundedCache<string, CachedAnswer>;
  private readonly admission = new SecondSight();
  private generation = -1;

  constructor(readonly maxBytes: number) {
    this.cache = new BoundedCache(maxBytes, (key, entry) => key.length + entry.body.bytes.byteLength + ENTRY_OVERHEAD_BYTES);
  }

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** Answers kept. */
  get size(): number {
    return this.cache.size;
  }

  /** Bytes of the answers kept. */
  get usedBytes(): number {
    return this.cache.usedBytes;
  }

  get hits(): number {
    return this.cache.hits;
  }

  get misses(): number {
    return this.cache.misses;
  }

  /** Empties the cache when the datasets changed since the entries were stored. */
  private sync(generation: number): void {
    if (generation === this.generation) return;
    this.cache.clear();
    this.generation = generation;
  }

  get(key: string, generation: number): CachedAnswer | undefined {
    this.sync(generation);
    return this.cache.get(key);
  }

  /** Whether an answer for `key` would be kept: the second request for it within the window (SecondSight). */
  admits(key: string): boolean {
    return this.enabled && this.admission.seenBefore(key);
  }

  set(key: string, generation: number, entry: CachedAnswer): void {
    // A value computed on data replaced meanwhile is not stored (and does not empty the newer ones);
    // one value never takes a large share of the cache.
    if (!this.enabled || generation < this.generation || key.length + entry.body.bytes.byteLength + ENTRY_OVERHEAD_BYTES > this.maxBytes / 8) return;
    this.sync(generation);
    this.cache.set(key, entry);
  }

  /** Counts a compressed copy added to a kept answer against the bound. */
  grew(key: string, entry: CachedAnswer, bytes: number): void {
    this.cache.grow(key, entry, bytes);
  }
}
