/**
 * A cache bounded by the bytes of its values, with hit, miss and eviction counters: the one
 * behind the response cache (server/http/response-cache.ts).
 *
 * Eviction is CLOCK, an approximation of least recently used: a hit marks its entry instead of
 * moving it (re-inserting on every hit made the Map rehash under load), and eviction, going from
 * the oldest insertion, gives a marked entry a second chance (moves it to the back, unmarked) and
 * drops an unmarked one. The entry just added always stays, even when it alone exceeds the budget.
 */

export interface BoundedCacheStats {
  entries: number;
  bytes: number;
  budgetBytes: number;
  hits: number;
  misses: number;
  evictions: number;
}

interface Slot<V> {
  value: V;
  cost: number;
  /** Read since eviction last passed it (CLOCK's reference bit). */
  used: boolean;
}

export class BoundedCache<K, V> {
  private readonly slots = new Map<K, Slot<V>>();
  private bytes = 0;
  hits = 0;
  misses = 0;
  evictions = 0;

  /** `costOf`: what an entry counts against the budget, bytes. */
  constructor(
    readonly budgetBytes: number,
    private readonly costOf: (key: K, value: V) => number,
  ) {}

  get size(): number {
    return this.slots.size;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  get(key: K): V | undefined {
    const slot = this.slots.get(key);
    if (slot === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    slot.used = true;
    return slot.value;
  }

  set(key: K, value: V): void {
    const old = this.slots.get(key);
    if (old !== undefined) {
      this.bytes -= old.cost;
      this.slots.delete(key);
    }
    const cost = this.costOf(key, value);
    this.slots.set(key, { value, cost, used: false });
    this.bytes += cost;
    this.evict();
  }

  /** Counts `bytes` more for the entry of `key` when it still holds `value` (a copy added to it). */
  grow(key: K, value: V, bytes: number): void {
    const slot = this.slots.get(key);
    if (slot === undefined || slot.value !== value) return; // evicted or replaced meanwhile: nothing counted
    slot.cost += bytes;
    this.bytes += bytes;
    this.evict();
  }

  clear(): void {
    this.slots.clear();
    this.bytes = 0;
  }

  stats(): BoundedCacheStats {
    return { entries: this.slots.size, bytes: this.bytes, budgetBytes: this.budgetBytes, hits: this.hits, misses: this.misses, evictions: this.evictions };
  }

  private evict(): void {
    // Each marked slot is moved to the back once and unmarked, so this ends within two passes.
    while (this.bytes > this.budgetBytes && this.slots.size > 1) {
      const [key, slot] = this.slots.entries().next().value as [K, Slot<V>];
      this.slots.delete(key);
      if (slot.used) {
        slot.used = false;
        this.slots.set(key, slot);
      } else {
        this.bytes -= slot.cost;
        this.evictions++;
      }
    }
  }
}
