/**
 * A set of GeoNames ids (uint32) in bounded memory: a bitmap cut into pages of 65,536 ids (8 KiB),
 * a page allocated when one of its ids is first added. GeoNames ids are below 13 million today:
 * 199 pages, 1.6 MB for the full allCountries; any spread of ids costs at most 512 MiB, never one
 * object per id (a JS Set of 11 million ids took hundreds of MB and tops out at 2^24 entries).
 * Used to drop duplicate rows within a dump and rows a later dump replaces, and to keep only the
 * alternate names of kept places, without holding any row.
 */
const PAGE_BITS = 16;
const PAGE_WORDS = 1 << (PAGE_BITS - 5);

export class SeenIds {
  private readonly pages: (Uint32Array | undefined)[] = [];

  /** Ids outside 0..2^32-1 are never in the set. */
  has(id: number): boolean {
    if (!(id >= 0 && id <= 0xffffffff)) return false;
    const page = this.pages[Math.floor(id / 65536)];
    return page !== undefined && (page[(id >>> 5) & (PAGE_WORDS - 1)]! & (1 << (id & 31))) !== 0;
  }

  /** True when the id was already in the set; adds it either way. */
  testAndSet(id: number): boolean {
    if (!(Number.isInteger(id) && id >= 0 && id <= 0xffffffff)) throw new RangeError(`a GeoNames id from 0 to 2^32-1, got ${id}`);
    const p = Math.floor(id / 65536);
    let page = this.pages[p];
    if (page === undefined) {
      page = new Uint32Array(PAGE_WORDS);
      this.pages[p] = page;
    }
    const word = (id >>> 5) & (PAGE_WORDS - 1);
    const mask = 1 << (id & 31);
    if (page[word]! & mask) return true;
    page[word]! |= mask;
    return false;
  }

  /** Adds every id of `other`. */
  addAll(other: SeenIds): void {
    other.pages.forEach((source, p) => {
      if (source === undefined) return;
      const page = this.pages[p];
      if (page === undefined) this.pages[p] = source.slice();
      else for (let i = 0; i < PAGE_WORDS; i++) page[i]! |= source[i]!;
    });
  }
}
