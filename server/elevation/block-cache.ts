/**
 * The memory-bounded cache of decoded DEM tile blocks (one internal GeoTIFF tile each, 8 KiB for
 * the build's 64x64 int16), least recently used out first. The budget is GEODATA_ELEVATION_CACHE_MB
 * (config `elevationCacheMb`, default 256 MiB: about 32,000 blocks, i.e. nine SRTM1 tiles or the
 * whole of ETOPO5 plus forty SRTM3 tiles).
 */

export interface BlockCacheStats {
  blocks: number;
  bytes: number;
  budgetBytes: number;
  hits: number;
  misses: number;
  evictions: number;
}

export class BlockCache {
  private readonly map = new Map<number, Int16Array>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  constructor(readonly budgetBytes: number) {}

  /** Key of block `block` of raster `raster` (fewer than 2^24 blocks per raster). */
  static key(raster: number, block: number): number {
    return raster * 16_777_216 + block;
  }

  get(key: number): Int16Array | undefined {
    const b = this.map.get(key);
    if (b === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Re-insert: Map iteration order is insertion order, so the first key is the least recent.
    this.map.delete(key);
    this.map.set(key, b);
    return b;
  }

  set(key: number, block: Int16Array): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.bytes -= old.byteLength;
      this.map.delete(key);
    }
    this.map.set(key, block);
    this.bytes += block.byteLength;
    // Keep at least the block just added, even when one block exceeds the whole budget.
    while (this.bytes > this.budgetBytes && this.map.size > 1) {
      const [k, v] = this.map.entries().next().value as [number, Int16Array];
      this.map.delete(k);
      this.bytes -= v.byteLength;
      this.evictions++;
    }
  }

  stats(): BlockCacheStats {
    return { blocks: this.map.size, bytes: this.bytes, budgetBytes: this.budgetBytes, hits: this.hits, misses: this.misses, evictions: this.evictions };
  }
}
