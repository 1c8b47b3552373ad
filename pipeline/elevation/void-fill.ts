/**
 * Void filling: every void pixel (-32768) of a finer DEM takes the bilinear value of the next
 * coarser DEM that has data at that pixel's centre (SRTM1 from SRTM3, SRTM3 from the global DEM).
 * Pixels no coarser DEM covers stay void; the reader then falls through to the next source.
 */
import { bilinear, locate, roundMetres, type DemGrid } from "../../datasets/elevation/grid.ts";
import { NODATA_INT16 } from "../../datasets/elevation/tiff-tags.ts";

export interface FillSource {
  source: string;
  grid: DemGrid;
  samples: Int16Array;
  /** Global grids answer north of their first row / south of their last with the edge row. */
  clampLatitude: boolean;
}

export interface FillResult {
  filled: number;
  left: number;
  /** Filled pixels per filling source. */
  bySource: Record<string, number>;
}

/** Samples a DEM held in memory (bilinear, voids left out); undefined outside it or on voids. */
export function sampleInMemory(fill: FillSource, lat: number, lon: number): number | undefined {
  const n = locate(fill.grid, lat, lon, fill.clampLatitude);
  if (n === undefined) return undefined;
  const w = fill.grid.width;
  const s = fill.samples;
  return bilinear(s[n.row0 * w + n.col0]!, s[n.row0 * w + n.col1]!, s[n.row1 * w + n.col0]!, s[n.row1 * w + n.col1]!, n.fx, n.fy, NODATA_INT16);
}

/** Fills the voids of `samples` in place from `fillers`, tried in order (finest first). */
export function fillVoids(grid: DemGrid, samples: Int16Array, fillers: readonly FillSource[]): FillResult {
  const result: FillResult = { filled: 0, left: 0, bySource: {} };
  for (let k = 0; k < samples.length; k++) {
    if (samples[k] !== NODATA_INT16) continue;
    const row = Math.floor(k / grid.width);
    const col = k - row * grid.width;
    const lat = grid.lat0 - (row * grid.resLatArcsec) / 3600;
    const lon = grid.lon0 + (col * grid.resLonArcsec) / 3600;
    let done = false;
    for (const fill of fillers) {
      const v = sampleInMemory(fill, lat, lon);
      if (v === undefined) continue;
      samples[k] = roundMetres(v);
      result.filled++;
      result.bySource[fill.source] = (result.bySource[fill.source] ?? 0) + 1;
      done = true;
      break;
    }
    if (!done) result.left++;
  }
  return result;
}
