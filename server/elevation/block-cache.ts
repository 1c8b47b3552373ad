/**
 * The memory-bounded cache of decoded DEM tile blocks (one internal GeoTIFF tile each, 8 KiB for
 * the build's 64x64 int16), on the shared bounded cache (server/api/bounded-cache.ts: CLOCK
 * eviction, counters). The budget is GEODATA_ELEVATION_CACHE_MB (config `elevationCacheMb`,
 * default 256 MiB: about 32,000 blocks, i.e. nine SRTM1 tiles or the whole of ETOPO5 plus forty
 * SRTM3 tiles).
 */
import { BoundedCache, type BoundedCacheStats } from "../api/bounded-cache.ts";

export interface BlockCacheStats extends Omit<BoundedCacheStats, "entries"> {
  blocks: number;
}

export class BlockCache {
  private readonly cache: BoundedCache<number, Int16Array>;

  constructor(readonly budgetBytes: number) {
    this.cache = new BoundedCache(budgetBytes, (_key, block) => block.byteLength);
  }

  /** Key of block `block` of raster `raster` (fewer than 2^24 blocks per raster). */
  static key(raster: number, block: number): number {
    return raster * 16_777_216 + block;
  }

  get(key: number): Int16Array | undefined {
    return this.cache.get(key);
  }

  set(key: number, block: Int16Array): void {
    this.cache.set(key, block);
  }

  stats(): BlockCacheStats {
    const { entries, ...rest } = this.cache.stats();
    return { blocks: entries, ...rest };
  }
}
