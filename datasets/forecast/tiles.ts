/**
 * Tile (chunk) arithmetic shared by the run writer and reader: the grid is cut into tiles of
 * `tile.lat` rows by `tile.lon` columns, numbered row-major (tile row = latitude band).
 */
import type { ForecastGrid, TileShape } from "./types.ts";

export interface TileLayout {
  tilesLat: number;
  tilesLon: number;
  count: number;
}

export function tileLayout(grid: ForecastGrid, tile: TileShape): TileLayout {
  const tilesLat = Math.ceil(grid.nLat / tile.lat);
  const tilesLon = Math.ceil(grid.nLon / tile.lon);
  return { tilesLat, tilesLon, count: tilesLat * tilesLon };
}

/** Rows and columns actually covered by a tile (edge tiles are smaller). */
export function tileExtent(grid: ForecastGrid, tile: TileShape, tileRow: number, tileCol: number): { rows: number; cols: number } {
  return {
    rows: Math.min(tile.lat, grid.nLat - tileRow * tile.lat),
    cols: Math.min(tile.lon, grid.nLon - tileCol * tile.lon),
  };
}

/** Bytes of the tile table that ends the payload: nTiles + 1 float64 offsets, tile count, reserved word. */
export function tileTableBytes(count: number): number {
  return 8 * (count + 1) + 8;
}

/**
 * Bytes of a tile record's head: per variable a uint32 block offset and an int32 reference, then a
 * uint16 blob offset per variable and cell, padded to 4.
 */
export function tileHeadBytes(variables: number, cells: number): number {
  return Math.ceil((8 * variables + 2 * variables * cells) / 4) * 4;
}
