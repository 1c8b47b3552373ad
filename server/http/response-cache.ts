/**
 * A bounded, in-memory cache of successful answers, per worker, for the endpoints whose answer is
 * a function of the normalized query, the loaded data and the policy's bucket of the instant
 * (server/api/cache-policy.ts): place search, elevation, METAR, SYNOP and point weather kept
 * whole; reverse geocoding, lookup by id and weather by id (`instant`: their timezone member and
 * weather.current say the request's second) kept as the handler's parts with those pieces
 * unwritten (api/instant-part.ts), which each hit writes at its own instant; the first hit joins
 * what lies between them into one fragment each (keptTemplate). An instant answer given whole is
 * never kept.
 *
 * - Key: the route, the bucket of the policy (for `forecast` the UTC quarter hour, for `instant`
 *   the UTC minute, the life of its ETag) and the parsed parameters' JSON (caching.ts), so
 *   `lat=52.50` and `lat=52.5` share an entry.
 * - Admission: an answer is kept on the second request for its key within the window of the last
 *   ADMISSION_WINDOW_KEYS to 2x that many keys seen once (SecondSight, a filter of hashed keys).
 *   A mix that never repeats then costs a hash and a bit test per request instead of filling the
 *   cache, copying every body and making the collector move them (docs/http.md "Compression and caching").
 * - Validity: an entry belongs to one dataset generation (DatasetRegistry.generation); any load,
 *   reload or failure of a dataset empties the cache, so an answer never outlives its data.
 * - Encodings: the identity body is stored, and each content coding (br, gzip) is compressed
 *   once, on the first request that asks for it, and kept beside it (counted against the bound).
 * - Bound: GEODATA_RESPONSE_CACHE_MB of bodies, on the shared bounded cache (api/bounded-cache.ts,
 *   CLOCK eviction); one answer never takes more than an eighth of it. 0 turns the cache off.
 */
import { BoundedCache } from "../api/bounded-cache.ts";
import { partsLength, type BodyPart } from "../api/body-parts.ts";
import { InstantPart, type TemplatePart } from "../api/instant-part.ts";
import type { Body } from "./exchange.ts";
import { fnv1a } from "./fnv1a.ts";

export interface CachedAnswer {
  /** The answer's headers, its identity ETag among them (Cache-Control is set per request). */
  headers: Readonly<Record<string, string>>;
  /** The identity bytes and the compressed copies made since. */
  body: Body & { bytes: Buffer };
}

/** An answer that carries the instant, kept as its parts with the instant's pieces unwritten. */
export interface CachedTemplate {
  headers: Readonly<Record<string, string>>;
  /** The parts as the handler gave them, until the first hit joins them (keptTemplate; `joined`). */
  template: readonly TemplatePart[];
  joined: boolean;
  /**
   * What it holds, for the bound: twice its written parts' bytes, since the fragments among them
   * keep their deflated copy (made on the first gzip answer, smaller than the bytes) too.
   */
  bytes: number;
}

export type CacheEntry = CachedAnswer | CachedTemplate;

/** The bytes a template holds, for the bound (CachedTemplate.bytes). */
export function templateBytes(template: readonly TemplatePart[]): number {
  return 2 * partsLength(template.filter((p): p is BodyPart => !(p instanceof InstantPart)));
}

function entryBytes(key: string, entry: CacheEntry): number {
  return key.length + ("template" in entry ? entry.bytes : entry.body.bytes.byteLength) + ENTRY_OVERHEAD_BYTES;
}

/** Fixed cost of an entry beyond its bodies (key, objects, headers), bytes, for the bound. */
export const ENTRY_OVERHEAD_BYTES = 512;

/** Keys seen once are remembered for between this many and twice this many first sightings. */
export const ADMISSION_WINDOW_KEYS = 16_384;

/**
 * Bits of each of the two filters: 2^20 (128 KiB). A key sets two bits (two hashes). With the most
 * keys a window remembers (twice ADMISSION_WINDOW_KEYS), a key never seen finds both its bits set
 * by others about 0.2 % of the time (with one bit: 3 %): its answer is then kept on its first
 * request, which costs a copy and never a wrong answer.
 */
export const ADMISSION_FILTER_BITS = 2 ** 20;

/**
 * Remembers the keys seen once, as bits of a hash of the key in two generations of filters: a key
 * is admitted when it is seen again while either has its bit. The newer filter becomes the older
 * when it has taken `windowKeys` keys. Bits, not the key strings: a set of tens of thousands of
 * strings that live for a while and then die together is what the collector spends the most on
 * (measured over HTTP: docs/http.md "Compression and caching").
 */
export class SecondSight {
  private newer: Uint32Array;
  private older: Uint32Array;
  private newerKeys = 0;

  constructor(
    private readonly windowKeys = ADMISSION_WINDOW_KEYS,
    private readonly filterBits = ADMISSION_FILTER_BITS,
  ) {
    if (!Number.isInteger(Math.log2(filterBits)) || filterBits < 32) throw new RangeError(`filter bits: expected a power of two of at least 32, got ${filterBits}`);
    this.newer = new Uint32Array(filterBits / 32);
    this.older = new Uint32Array(filterBits / 32);
  }

  /** True when `key` was seen within the window (and is admitted); else remembers it. */
  seenBefore(key: string): boolean {
    const mask = this.filterBits - 1;
    const h = fnv1a(key);
    // The second bit from the same hash, remixed (a multiplicative hash): two bits a key make a
    // false admission about eight times rarer than one.
    const a = h & mask;
    const b = (Math.imul(h ^ (h >>> 16), 0x45d9f3b) >>> 0) & mask;
    const wa = a >>> 5;
    const wb = b >>> 5;
    const ba = 1 << (a & 31);
    const bb = 1 << (b & 31);
    if ((this.newer[wa]! & ba) !== 0 && (this.newer[wb]! & bb) !== 0) return true;
    if ((this.older[wa]! & ba) !== 0 && (this.older[wb]! & bb) !== 0) return true;
    if (this.newerKeys >= this.windowKeys) {
      const emptied = this.older.fill(0);
      this.older = this.newer;
      this.newer = emptied;
      this.newerKeys = 0;
    }
    this.newer[wa]! |= ba;
    this.newer[wb]! |= bb;
    this.newerKeys++;
    return false;
  }
}

export class ResponseCache {
  private readonly cache: BoundedCache<string, CacheEntry>;
  private readonly admission = new SecondSight();
  private generation = -1;

  constructor(readonly maxBytes: number) {
    this.cache = new BoundedCache(maxBytes, entryBytes);
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

  get(key: string, generation: number): CacheEntry | undefined {
    this.sync(generation);
    return this.cache.get(key);
  }

  /** Whether an answer for `key` would be kept: the second request for it within the window (SecondSight). */
  admits(key: string): boolean {
    return this.enabled && this.admission.seenBefore(key);
  }

  set(key: string, generation: number, entry: CacheEntry): void {
    // A value computed on data replaced meanwhile is not stored (and does not empty the newer ones);
    // one value never takes a large share of the cache.
    if (!this.enabled || generation < this.generation || entryBytes(key, entry) > this.maxBytes / 8) return;
    this.sync(generation);
    this.cache.set(key, entry);
  }

  /** Counts a compressed copy added to a kept answer against the bound. */
  grew(key: string, entry: CachedAnswer, bytes: number): void {
    this.cache.grow(key, entry, bytes);
  }
}
