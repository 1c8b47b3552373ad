/**
 * Point lookups over the elevation dataset: the best resolution at the point, bilinear between the
 * four surrounding pixel centres, falling through to the next coarser DEM where the finer one has
 * no data (outside its tiles, or a void its build could not fill), down to the global DEMs, which
 * wrap at ±180° and take their edge row at the poles.
 *
 * The warm path (`lookupSync`) reads no file and awaits nothing (one small answer object per
 * call); a miss in the block cache makes it return NEEDS_BLOCK with the block to read, which
 * `lookup` reads asynchronously and retries.
 */
import type { DemTiff } from "../../datasets/elevation/dem-tiff.ts";
import { bilinear, locate } from "../../datasets/elevation/grid.ts";
import { formatResolution, type DemRasterEntry } from "../../datasets/elevation/index-format.ts";
import { NODATA_INT16 } from "../../datasets/elevation/tiff-tags.ts";
import { BlockCache } from "./block-cache.ts";

export interface ElevationAnswer {
  /** Interpolated elevation, metres (not rounded). */
  metres: number;
  /** `srtm1`, `srtm3`, `etopo5`. */
  source: string;
  /** `1arcsec`, `3arcsec`, `5arcmin`. */
  resolution: string;
}

export interface OpenRaster {
  entry: DemRasterEntry;
  tiff: DemTiff;
  resolution: string;
}

/** Returned by lookupSync when a block must be read first (see `pendingRaster` / `pendingBlock`). */
export const NEEDS_BLOCK: unique symbol = Symbol("needs block");

/** 1° cells: latitude index -90..90, longitude index -180..180. */
const LON_CELLS = 361;

function cellKey(latIndex: number, lonIndex: number): number {
  return (latIndex + 90) * LON_CELLS + (lonIndex + 180);
}

export class ElevationStore {
  readonly rasters: readonly OpenRaster[];
  readonly cache: BlockCache;
  /** By 1° cell: the tiles touching it and every global raster, finest first (ties: tiles first). */
  private readonly cells = new Map<number, number[]>();
  /** Global rasters, finest first: the candidates of a cell no tile touches. */
  private readonly globals: number[] = [];
  private readonly inflight = new Map<number, Promise<Int16Array>>();
  /**
   * Blocks one `lookup` call has read, consulted on a cache miss while that call retries, so that
   * other requests evicting them (a small budget under load) cannot starve it. Set only around a
   * synchronous lookupSync call, so concurrent lookups never see each other's.
   */
  private pinned: Map<number, Int16Array> | undefined;
  pendingRaster = -1;
  pendingBlock = -1;

  constructor(rasters: readonly OpenRaster[], cacheBudgetBytes: number) {
    this.rasters = rasters;
    this.cache = new BlockCache(cacheBudgetBytes);
    const rank = (id: number): number => rasters[id]!.entry.grid.resLonArcsec * 2 + (rasters[id]!.entry.kind === "global" ? 1 : 0);
    const finest = (a: number, b: number): number => rank(a) - rank(b);
    for (const [id, r] of rasters.entries()) {
      if (r.entry.kind === "global") {
        this.globals.push(id);
        continue;
      }
      const g = r.entry.grid;
      const north = g.lat0;
      const south = g.lat0 - ((g.height - 1) * g.resLatArcsec) / 3600;
      const west = g.lon0;
      const east = g.lon0 + ((g.width - 1) * g.resLonArcsec) / 3600;
      // A tile is registered in every 1° cell its closed extent touches (its north edge lies in the
      // next cell up), and under both names of the antimeridian (-180 and 180).
      for (let la = Math.max(-90, Math.floor(south)); la <= Math.min(90, Math.floor(north)); la++) {
        for (let lo = Math.max(-180, Math.floor(west)); lo <= Math.min(180, Math.floor(east)); lo++) {
          const lons = lo === -180 ? [-180, 180] : lo === 180 ? [180, -180] : [lo];
          for (const l of lons) {
            const key = cellKey(la, l);
            const list = this.cells.get(key) ?? [];
            if (!list.includes(id)) list.push(id);
            this.cells.set(key, list);
          }
        }
      }
    }
    this.globals.sort(finest);
    // A coarse regional tile must not hide a finer global DEM: each cell tries all by resolution.
    for (const [key, list] of this.cells) this.cells.set(key, [...list, ...this.globals].sort(finest));
  }

  /** Samples one raster: a value, undefined (outside or void), or NaN when a block must be read. */
  private sample(id: number, lat: number, lon: number): number | undefined {
    const r = this.rasters[id]!;
    const n = locate(r.entry.grid, lat, lon, r.entry.kind === "global");
    if (n === undefined) return undefined;
    const { tileWidth: tw, tileHeight: th, tilesAcross } = r.tiff.layout;
    const base = id * 16_777_216;
    let v00 = 0;
    let v10 = 0;
    let v01 = 0;
    let v11 = 0;
    const bx0 = Math.floor(n.col0 / tw);
    const by0 = Math.floor(n.row0 / th);
    const bx1 = Math.floor(n.col1 / tw);
    const by1 = Math.floor(n.row1 / th);
    const b00 = by0 * tilesAcross + bx0;
    const block00 = this.block(base + b00);
    if (block00 === undefined) return this.need(id, b00);
    const cx0 = n.col0 - bx0 * tw;
    const cy0 = n.row0 - by0 * th;
    const cx1 = n.col1 - bx1 * tw;
    const cy1 = n.row1 - by1 * th;
    if (bx0 === bx1 && by0 === by1) {
      // The common case: all four pixels in one block.
      v00 = block00[cy0 * tw + cx0]!;
      v10 = block00[cy0 * tw + cx1]!;
      v01 = block00[cy1 * tw + cx0]!;
      v11 = block00[cy1 * tw + cx1]!;
    } else {
      const b10 = by0 * tilesAcross + bx1;
      const b01 = by1 * tilesAcross + bx0;
      const b11 = by1 * tilesAcross + bx1;
      const block10 = b10 === b00 ? block00 : this.block(base + b10);
      if (block10 === undefined) return this.need(id, b10);
      const block01 = b01 === b00 ? block00 : this.block(base + b01);
      if (block01 === undefined) return this.need(id, b01);
      const block11 = b11 === b00 ? block00 : b11 === b10 ? block10 : b11 === b01 ? block01 : this.block(base + b11);
      if (block11 === undefined) return this.need(id, b11);
      v00 = block00[cy0 * tw + cx0]!;
      v10 = block10[cy0 * tw + cx1]!;
      v01 = block01[cy1 * tw + cx0]!;
      v11 = block11[cy1 * tw + cx1]!;
    }
    return bilinear(v00, v10, v01, v11, n.fx, n.fy, NODATA_INT16);
  }

  private block(key: number): Int16Array | undefined {
    return this.cache.get(key) ?? this.pinned?.get(key);
  }

  private need(id: number, block: number): number {
    this.pendingRaster = id;
    this.pendingBlock = block;
    return NaN;
  }

  private answer(id: number, metres: number): ElevationAnswer {
    const r = this.rasters[id]!;
    return { metres, source: r.entry.source, resolution: r.resolution };
  }

  /**
   * The answer from cached blocks: an answer, undefined when no DEM has data at the point, or
   * NEEDS_BLOCK (then `pendingRaster`/`pendingBlock` name the block to read).
   */
  lookupSync(lat: number, lon: number): ElevationAnswer | undefined | typeof NEEDS_BLOCK {
    const candidates = this.cells.get(cellKey(Math.floor(lat), Math.floor(lon))) ?? this.globals;
    for (const id of candidates) {
      const v = this.sample(id, lat, lon);
      if (v === undefined) continue;
      return Number.isNaN(v) ? NEEDS_BLOCK : this.answer(id, v);
    }
    return undefined;
  }

  /** Reads one block into the cache (concurrent requests for the same block share one read). */
  loadBlock(raster: number, block: number): Promise<Int16Array> {
    const key = BlockCache.key(raster, block);
    let p = this.inflight.get(key);
    if (p === undefined) {
      p = this.rasters[raster]!.tiff.readBlock(block).then(
        (data) => {
          this.cache.set(key, data);
          this.inflight.delete(key);
          return data;
        },
        (err: unknown) => {
          this.inflight.delete(key);
          throw err;
        },
      );
      this.inflight.set(key, p);
    }
    return p;
  }

  /** The answer now when the blocks it needs are cached, else a promise of it (blocks read). */
  lookupNowOrLater(lat: number, lon: number): ElevationAnswer | undefined | Promise<ElevationAnswer | undefined> {
    const first = this.lookupSync(lat, lon);
    return first === NEEDS_BLOCK ? this.readBlocksFor(lat, lon) : first;
  }

  /** The answer at a point, reading blocks as needed; undefined when no DEM has data there. */
  async lookup(lat: number, lon: number): Promise<ElevationAnswer | undefined> {
    return this.lookupNowOrLater(lat, lon);
  }

  /**
   * After lookupSync answered NEEDS_BLOCK (pendingRaster/pendingBlock name the block): reads
   * blocks until the answer settles. Each round reads one block this call lacks and keeps it
   * (pinned), so at most four per raster it tries are read.
   */
  private async readBlocksFor(lat: number, lon: number): Promise<ElevationAnswer | undefined> {
    const mine = new Map<number, Int16Array>();
    for (;;) {
      mine.set(BlockCache.key(this.pendingRaster, this.pendingBlock), await this.loadBlock(this.pendingRaster, this.pendingBlock));
      this.pinned = mine;
      try {
        const r = this.lookupSync(lat, lon);
        if (r !== NEEDS_BLOCK) return r;
      } finally {
        this.pinned = undefined;
      }
    }
  }

  /** The same answer, reading missing blocks blocking (benches, comparisons). */
  lookupBlocking(lat: number, lon: number): ElevationAnswer | undefined {
    const mine = new Map<number, Int16Array>();
    for (;;) {
      this.pinned = mine;
      let r: ElevationAnswer | undefined | typeof NEEDS_BLOCK;
      try {
        r = this.lookupSync(lat, lon);
      } finally {
        this.pinned = undefined;
      }
      if (r !== NEEDS_BLOCK) return r;
      const key = BlockCache.key(this.pendingRaster, this.pendingBlock);
      const data = this.rasters[this.pendingRaster]!.tiff.readBlockSync(this.pendingBlock);
      this.cache.set(key, data);
      mine.set(key, data);
    }
  }

  close(): void {
    for (const r of this.rasters) r.tiff.close();
  }
}

export function resolutionOf(entry: DemRasterEntry): string {
  return formatResolution(entry.grid.resLonArcsec);
}
