/**
 * Point lookups over the elevation dataset: the best resolution at the point, bilinear between the
 * four surrounding pixel centres, falling through to the next coarser DEM where the finer one has
 * no data (outside its tiles, or a void its build could not fill), down to the global DEMs, which
 * wrap at ±180° and take their edge row at the poles.
 *
 * One lookup path, synchronous, with no cache: each internal tile the four pixels lie in (one,
 * nearly always) is one positioned read into a reused slot (DemTiff.readSamples): the whole tile
 * (2 KiB) and a check of its Adler-32 the first time this worker reads it, then only the samples
 * the lookup needs (a page-cache copy, see datasets/common/README.md); a compressed tile (a build
 * with --level 1-9) is inflated. Nothing is awaited: a promise round trip through libuv's thread
 * pool cost more than the read it waited for.
 */
import { tileSlot, type DemTiff, type TileSlot } from "../../datasets/elevation/dem-tiff.ts";
import { bilinear, locate } from "../../datasets/elevation/grid.ts";
import { formatResolution, type DemRasterEntry } from "../../datasets/elevation/index-format.ts";
import { NODATA_INT16 } from "../../datasets/elevation/tiff-tags.ts";

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
  /** One slot per pixel of the four a lookup reads, each as large as the largest stored tile. */
  private readonly slots: readonly [TileSlot, TileSlot, TileSlot, TileSlot];
  /** By 1° cell: the tiles touching it and every global raster, finest first (ties: tiles first). */
  private readonly cells = new Map<number, number[]>();
  /** Global rasters, finest first: the candidates of a cell no tile touches. */
  private readonly globals: number[] = [];

  constructor(rasters: readonly OpenRaster[]) {
    this.rasters = rasters;
    // Compressed tiles larger than this (never our writer's) are read into a fresh buffer instead.
    const largest = Math.min(1 << 20, rasters.reduce((max, r) => Math.max(max, r.tiff.layout.tiles.largest), 0));
    this.slots = [tileSlot(largest), tileSlot(largest), tileSlot(largest), tileSlot(largest)];
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
    const tiff = r.tiff;
    const [s0, s1, s2, s3] = this.slots;
    const cx0 = n.col0 - bx0 * tw;
    const cy0 = n.row0 - by0 * th;
    const cx1 = n.col1 - bx1 * tw;
    const cy1 = n.row1 - by1 * th;
    const i00 = cy0 * tw + cx0;
    const i10 = cy0 * tw + cx1;
    const i01 = cy1 * tw + cx0;
    const i11 = cy1 * tw + cx1;
    // The common case: all four pixels in one block (31 of 32 rows and columns of a 32x32 tile),
    // samples i00..i11 of it. Otherwise each block is read into a slot of its own, for the
    // samples of its pixels: a block holds two of them when both columns (b10 = b00) or both rows
    // (b01 = b00) lie in it.
    const b10 = by0 * tilesAcross + bx1;
    const b01 = by1 * tilesAcross + bx0;
    const b11 = by1 * tilesAcross + bx1;
    if (b11 === b00) {
      const block = tiff.readSamples(b00, s0, i00, i11);
      return bilinear(block[i00]!, block[i10]!, block[i01]!, block[i11]!, n.fx, n.fy, NODATA_INT16);
    }
    const block00 = tiff.readSamples(b00, s0, i00, b10 === b00 ? i10 : b01 === b00 ? i01 : i00);
    const block10 = b10 === b00 ? block00 : tiff.readSamples(b10, s1, i10, b11 === b10 ? i11 : i10);
    const block01 = b01 === b00 ? block00 : tiff.readSamples(b01, s2, i01, b11 === b01 ? i11 : i01);
    const block11 = b11 === b10 ? block10 : b11 === b01 ? block01 : tiff.readSamples(b11, s3, i11, i11);
    return bilinear(block00[i00]!, block10[i10]!, block01[i01]!, block11[i11]!, n.fx, n.fy, NODATA_INT16);
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
