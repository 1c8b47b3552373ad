/**
 * A set of GeoNames ids in bounded memory: a bitmap for the dense range (GeoNames ids are below
 * 13 million today: 2 MB for the full allCountries), a Set beyond. Used to drop duplicate rows
 * within a dump and rows a later dump replaces, without holding any row.
 */
export class SeenIds {
  private bits = new Uint32Array(1 << 16);
  private readonly sparse = new Set<number>();
  private static readonly DENSE_LIMIT = 1 << 27;

  has(id: number): boolean {
    if (id >= SeenIds.DENSE_LIMIT) return this.sparse.has(id);
    const word = id >>> 5;
    return word < this.bits.length && (this.bits[word]! & (1 << (id & 31))) !== 0;
  }

  /** True when the id was already in the set; adds it either way. */
  testAndSet(id: number): boolean {
    if (id >= SeenIds.DENSE_LIMIT) {
      if (this.sparse.has(id)) return true;
      this.sparse.add(id);
      return false;
    }
    const word = id >>> 5;
    this.grow(word + 1);
    const mask = 1 << (id & 31);
    if (this.bits[word]! & mask) return true;
    this.bits[word]! |= mask;
    return false;
  }

  /** Adds every id of `other`. */
  addAll(other: SeenIds): void {
    this.grow(other.bits.length);
    for (let i = 0; i < other.bits.length; i++) this.bits[i]! |= other.bits[i]!;
    for (const id of other.sparse) this.sparse.add(id);
  }

  private grow(words: number): void {
    if (words <= this.bits.length) return;
    let size = this.bits.length;
    while (size < words) size *= 2;
    const next = new Uint32Array(size);
    next.set(this.bits);
    this.bits = next;
  }
}
