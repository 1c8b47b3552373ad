/**
 * Point lookups over the elevation dataset: the best resolution at the point, bilinear between the
 * four surrounding pixel centres, falling through to the next coarser DEM where the finer one has
 * no data (outside its tiles, or a void its build could not fill), down to the global DEMs, which
 * wrap at ±180° and take their edge row at the poles.
 *
 * One lookup path, synchronous: a block in the worker's cache of decoded blocks costs no read; a
 * miss is one positioned read of the block's stored bytes (a page-cache copy of a few KiB, see
 * datasets/common/README.md) and an inflate, then the block joins the cache. Nothing is awaited:
 * a promise round trip through libuv's thread pool cost more than the read it waited for.
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

  /** Samples one raster: a value, or undefined (outside its grid, or void there). */
  private sample(id: number, lat: number, lon: number): number | undefined {
    const r = this.rasters[id]!;
    const n = locate(r.entry.grid, lat, lon, r.entry.kind === "global");
    if (n === undefined) return undefined;
    const { tileWidth: tw, tileHeight: th, tilesAcross } = r.tiff.layout;
    const bx0 = Math.floor(n.col0 / tw);
    const by0 = Math.floor(n.row0 / th);
    const bx1 = Math.floor(n.col1 / tw);
    const by1 = Math.floor(n.row1 / th);
    const b00 = by0 * tilesAcross + bx0;
    const block00 = this.block(id, b00);
    const cx0 = n.col0 - bx0 * tw;
    const cy0 = n.row0 - by0 * th;
    const cx1 = n.col1 - bx1 * tw;
    const cy1 = n.row1 - by1 * th;
    // The common case: all four pixels in one block. Blocks are held in locals, so a small cache
    // evicting one while the others are read cannot lose it.
    const b10 = by0 * tilesAcross + bx1;
    const b01 = by1 * tilesAcross + bx0;
    const b11 = by1 * tilesAcross + bx1;
    const block10 = b10 === b00 ? block00 : this.block(id, b10);
    const block01 = b01 === b00 ? block00 : this.block(id, b01);
    const block11 = b11 === b00 ? block00 : b11 === b10 ? block10 : b11 === b01 ? block01 : this.block(id, b11);
    return bilinear(block00[cy0 * tw + cx0]!, block10[cy0 * tw + cx1]!, block01[cy1 * tw + cx0]!, block11[cy1 * tw + cx1]!, n.fx, n.fy, NODATA_INT16);
  }

  /** Block `block` of raster `id`: from the cache, else read, decoded and cached. */
  private block(id: number, block: number): Int16Array {
    const key = BlockCache.key(id, block);
    let data = this.cache.get(key);
    if (data === undefined) {
      data = this.rasters[id]!.tiff.readBlock(block);
      this.cache.set(key, data);
    }
    return data;
  }

  private answer(id: number, metres: number): ElevationAnswer {
    const r = this.rasters[id]!;
    return { metres, source: r.entry.source, resolution: r.resolution };
  }

  /** The answer at a point, reading the blocks it needs; undefined when no DEM has data there. */
  lookup(lat: number, lon: number): ElevationAnswer | undefined {
    const candidates = this.cells.get(cellKey(Math.floor(lat), Math.floor(lon))) ?? this.globals;
    for (const id of candidates) {
      const v = this.sample(id, lat, lon);
      if (v !== undefined) return this.answer(id, v);
    }
    return undefined;
  }

  close(): void {
    for (const r of this.rasters) r.tiff.close();
  }
}

export function resolutionOf(entry: DemRasterEntry): string {
  return formatResolution(entry.grid.resLonArcsec);
}
