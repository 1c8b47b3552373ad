/**
 * A bounded, in-memory cache of whole successful answers, per worker, for the endpoints whose
 * answer is a function of the normalized query and the loaded data alone (cache policies
 * `release`, `observations` and `forecast`, server/http/cache.ts): place search, elevation,
 * METAR, SYNOP and point weather. Answers carrying the request's instant (`instant` policy:
 * reverse geocoding, lookup by id, weather by id) are never kept: their bytes change every second.
 *
 * - Key: the route, the parsed and typed parameters (so `lat=52.50` and `lat=52.5` share an
 *   entry) and, for `forecast`, the UTC quarter hour (the slots start at the point's local day).
 * - Validity: an entry belongs to one dataset generation (DatasetRegistry.generation); any load,
 *   reload or failure of a dataset empties the cache, so an answer never outlives its data.
 * - Encodings: the identity body is stored, and each content coding (br, gzip) is compressed
 *   once, on the first request that asks for it, and kept beside it.
 * - Bound: GEODATA_RESPONSE_CACHE_MB of bodies (all codings counted); the oldest entry
 *   not read since eviction last passed it goes first (CLOCK). 0 turns the cache off.
 *
 * Why: a repeated query (an app polling its user's place, a station page, a popular name) costs
 * a Map lookup instead of the search, the serialization and the compression (docs/http.md
 * gives the measured cost of each path).
 */
import type { Encoding } from "./respond.ts";

export interface CachedAnswer {
  /** The identity body (the whole envelope). */
  body: Buffer;
  /** The handler's headers (ETag and Cache-Control are added per request). */
  headers: Readonly<Record<string, string>>;
  /** The ETag of the identity body, e.g. `"abc"`; a coding's tag adds `-br` / `-gzip` (with the level when kept harder: cache.ts encodedTag). */
  etag: string;
  /** Compressed copies, filled on demand. */
  encoded: Partial<Record<Exclude<Encoding, "identity">, Buffer>>;
}

/** Fixed cost of an entry beyond its bodies (key, objects, headers), bytes, for the bound. */
export const ENTRY_OVERHEAD_BYTES = 512;

/** An answer, with what it costs against the bound. */
interface Slot {
  value: CachedAnswer;
  cost: number;
  /** Read since eviction last passed it (the CLOCK algorithm's reference bit). */
  used: boolean;
}

export class ResponseCache {
  private readonly slots = new Map<string, Slot>();
  private bytes = 0;
  private generation = -1;
  hits = 0;
  misses = 0;

  constructor(readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** Answers kept. */
  get size(): number {
    return this.slots.size;
  }

  /** Bytes of the answers kept. */
  get usedBytes(): number {
    return this.bytes;
  }

  /** Empties the cache when the datasets changed since the entries were stored. */
  private sync(generation: number): void {
    if (generation === this.generation) return;
    this.slots.clear();
    this.bytes = 0;
    this.generation = generation;
  }

  get(key: string, generation: number): CachedAnswer | undefined {
    this.sync(generation);
    const slot = this.slots.get(key);
    if (slot === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Marked, not moved: re-inserting on every hit made the Map rehash under load; eviction gives a
    // marked slot a second chance instead (CLOCK, an approximation of least recently used).
    slot.used = true;
    return slot.value;
  }

  set(key: string, generation: number, entry: CachedAnswer): void {
    const cost = key.length + entry.body.byteLength + ENTRY_OVERHEAD_BYTES;
    // A value computed on data replaced meanwhile is not stored (and does not empty the newer ones);
    // one value never takes a large share of the cache.
    if (!this.enabled || generation < this.generation || cost > this.maxBytes / 8) return;
    this.sync(generation);
    const old = this.slots.get(key);
    if (old !== undefined) {
      this.bytes -= old.cost;
      this.slots.delete(key);
    }
    this.slots.set(key, { value: entry, cost, used: false });
    this.bytes += cost;
    this.evict();
  }

  /** Records a compressed copy made for an answer (counted against the bound). */
  addEncoding(key: string, entry: CachedAnswer, encoding: Exclude<Encoding, "identity">, body: Buffer): void {
    if (entry.encoded[encoding] !== undefined) return;
    entry.encoded[encoding] = body;
    const slot = this.slots.get(key);
    if (slot === undefined || slot.value !== entry) return; // evicted or replaced meanwhile: nothing counted
    slot.cost += body.byteLength;
    this.bytes += body.byteLength;
    this.evict();
  }

  private evict(): void {
    // Each marked slot is moved to the back once and unmarked, so this ends within two passes.
    while (this.bytes > this.maxBytes) {
      const first = this.slots.entries().next();
      if (first.done === true) break;
      const [key, slot] = first.value;
      this.slots.delete(key);
      if (slot.used) {
        slot.used = false;
        this.slots.set(key, slot);
      } else {
        this.bytes -= slot.cost;
      }
    }
  }
}
