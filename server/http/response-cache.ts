/**
 * A bounded, in-memory cache of whole successful answers, per worker, for the endpoints whose
 * answer is a function of the normalized query and the loaded data alone (cache policies
 * `release`, `observations` and `forecast`, server/http/cache.ts): place search, elevation,
 * METAR, SYNOP and point weather. Answers carrying the request's instant (`instant` policy:
 * reverse geocoding, lookup by id, weather by id) are never cached whole.
 *
 * - Key: the route, the parsed and typed parameters (so `lat=52.50` and `lat=52.5` share an
 *   entry) and, for `forecast`, the UTC quarter hour (the slots start at the point's local day).
 * - Validity: an entry belongs to one dataset generation (DatasetRegistry.generation); any load,
 *   reload or failure of a dataset empties the cache, so an answer never outlives its data.
 * - Encodings: the identity body is stored, and each content coding (br, gzip) is compressed
 *   once, on the first request that asks for it, and kept beside it.
 * - Bound: GEODATA_RESPONSE_CACHE_MB of bodies (all codings counted); the oldest entry not read
 *   since eviction last passed it goes first (CLOCK). 0 turns the cache off.
 *
 * Why: a repeated query (an app polling its user's place, a station page, a popular name) costs
 * a Map lookup instead of the search, the serialization and the compression (docs/http.md
 * gives the measured cost of each path).
 */
import type { Encoding } from "./respond.ts";

export interface CachedAnswer {
  /** The identity body (the whole envelope). */
  body: Buffer;
  /** The handler's headers and the ETag digest's base (without the coding suffix). */
  headers: Readonly<Record<string, string>>;
  /** The ETag of the identity body, e.g. `"abc"`; a coding's tag adds `-br` / `-gzip`. */
  etag: string;
  /** Compressed copies, filled on demand. */
  encoded: Partial<Record<Exclude<Encoding, "identity">, Buffer>>;
  /** Read since eviction last passed it (the CLOCK algorithm's reference bit). */
  used?: boolean;
}

/** Fixed cost of an entry beyond its bodies (key, objects, headers), bytes, for the bound. */
const ENTRY_OVERHEAD_BYTES = 512;

export class ResponseCache {
  private readonly entries = new Map<string, CachedAnswer>();
  /** Parts of answers (HandlerContext.memo), bounded to a quarter of the bytes, cleared when full. */
  private readonly parts = new Map<string, unknown>();
  private partBytes = 0;
  private bytes = 0;
  private generation = -1;
  hits = 0;
  misses = 0;

  constructor(readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** Whole answers and parts kept. */
  get size(): number {
    return this.entries.size + this.parts.size;
  }

  /** Bytes of whole answers and parts kept. */
  get usedBytes(): number {
    return this.bytes + this.partBytes;
  }

  /** Empties the cache when the datasets changed since the entries were stored. */
  private sync(generation: number): void {
    if (generation === this.generation) return;
    this.entries.clear();
    this.bytes = 0;
    this.parts.clear();
    this.partBytes = 0;
    this.generation = generation;
  }

  /**
   * The part kept under `key` for this generation, else `compute()`'s value, kept. Promises are
   * not kept (a part that had to wait is computed again next time).
   */
  memo<T>(key: string, generation: number, bytes: (value: T) => number, compute: () => T): T {
    if (!this.enabled || generation < this.generation) return compute();
    this.sync(generation);
    if (this.parts.has(key)) {
      this.hits++;
      return this.parts.get(key) as T;
    }
    this.misses++;
    const value = compute();
    if (value instanceof Promise) return value;
    const cost = key.length + bytes(value) + ENTRY_OVERHEAD_BYTES;
    if (this.partBytes + cost > this.maxBytes / 4) {
      // Parts are small and cheap to recompute: starting over beats tracking their recency.
      this.parts.clear();
      this.partBytes = 0;
    }
    this.parts.set(key, value);
    this.partBytes += cost;
    return value;
  }

  get(key: string, generation: number): CachedAnswer | undefined {
    this.sync(generation);
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Marked, not moved: re-inserting on every hit made the Map rehash under load; eviction gives a
    // marked entry a second chance instead (CLOCK, an approximation of least recently used).
    entry.used = true;
    return entry;
  }

  set(key: string, generation: number, entry: CachedAnswer): void {
    // An answer computed on data replaced meanwhile is not stored (and does not empty the newer entries).
    if (!this.enabled || generation < this.generation) return;
    this.sync(generation);
    const cost = costOf(key, entry);
    if (cost > this.maxBytes / 8) return; // one answer never takes a large share of the cache
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.bytes -= costOf(key, old);
      this.entries.delete(key);
    }
    this.entries.set(key, entry);
    this.bytes += cost;
    this.evict();
  }

  /** Records a compressed copy made for an entry (counted against the bound). */
  addEncoding(key: string, entry: CachedAnswer, encoding: Exclude<Encoding, "identity">, body: Buffer): void {
    if (entry.encoded[encoding] !== undefined) return;
    entry.encoded[encoding] = body;
    if (this.entries.get(key) !== entry) return; // evicted or replaced meanwhile: nothing counted
    this.bytes += body.byteLength;
    this.evict();
  }

  private evict(): void {
    // Each marked entry is moved to the back once and unmarked, so this ends within two passes.
    while (this.bytes + this.partBytes > this.maxBytes) {
      const first = this.entries.entries().next();
      if (first.done === true) break;
      const [key, entry] = first.value;
      this.entries.delete(key);
      if (entry.used === true) {
        entry.used = false;
        this.entries.set(key, entry);
      } else {
        this.bytes -= costOf(key, entry);
      }
    }
  }
}

function costOf(key: string, entry: CachedAnswer): number {
  return key.length + entry.body.byteLength + (entry.encoded.br?.byteLength ?? 0) + (entry.encoded.gzip?.byteLength ?? 0) + ENTRY_OVERHEAD_BYTES;
}
