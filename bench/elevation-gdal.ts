/**
 * Accuracy of the elevation lookups against GDAL reading the SOURCE DEMs (not our tiles):
 * - raw pixels: 100,000 seeded random pixels, GDAL `gdallocationinfo` (pixel/line on stdin) on the
 *   upstream files (`/vsigzip/`, `/vsizip/` for the compressed ones) vs our answer at the pixel's
 *   centre (which must be that pixel exactly);
 * - bilinear: `gdalwarp -r bilinear -ot Float32` of each source onto a grid finer than the source
 *   (so GDAL's kernel is plain bilinear), offset by a fraction of a pixel, vs our unrounded answer
 *   at every output pixel centre.
 * Used by bench/elevation.bench.ts; skipped when GDAL is not installed.
 */
import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";
import { fromFile } from "geotiff";
import type { ElevationStore } from "../server/elevation/elevation-store.ts";

/** GDAL's /vsigzip/ would otherwise leave `<file>.gz.properties` beside the committed sources. */
const NO_PROPERTIES = ["--config", "CPL_VSIL_GZIP_WRITE_PROPERTIES", "NO"];

export function hasGdal(): boolean {
  return spawnSync("gdallocationinfo", ["--version"], { stdio: "ignore" }).status === 0;
}

interface GdalSource {
  name: string;
  /** GDAL path of the upstream file. */
  gdalPath: string;
  width: number;
  height: number;
  /** Centre of pixel (0,0) and pixels per degree, as the upstream file lays them out. */
  lon0: number;
  lat0: number;
  perDegree: number;
  /** Pixels to compare. */
  count: number;
  /** A window for the bilinear comparison: [west, south, east, north] in the source's longitudes. */
  window: [number, number, number, number];
}

export interface GdalComparison {
  source: string;
  pixels: number;
  pixelMismatches: number;
  bilinearPoints: number;
  bilinearMaxAbsDiffM: number;
  bilinearOver05: number;
}

function sources(demDir: string): GdalSource[] {
  return [
    { name: "etopo5 (etopo5.tif, 0..360)", gdalPath: path.join(demDir, "etopo5.tif"), width: 4320, height: 2161, lon0: 0, lat0: 90, perDegree: 12, count: 40_000, window: [80.013, 27.007, 87.513, 34.507] },
    { name: "srtm3 N00E010.hgt.gz", gdalPath: `/vsigzip/${path.join(demDir, "N00E010.hgt.gz")}`, width: 1201, height: 1201, lon0: 10, lat0: 1, perDegree: 1200, count: 20_000, window: [10.3001, 0.4003, 10.3751, 0.4753] },
    { name: "srtm3 N00E011.hgt.zip", gdalPath: `/vsizip/${path.join(demDir, "N00E011.hgt.zip")}/N00E011.hgt`, width: 1201, height: 1201, lon0: 11, lat0: 1, perDegree: 1200, count: 20_000, window: [11.5001, 0.6003, 11.5751, 0.6753] },
    { name: "srtm1 S46W066.hgt.gz", gdalPath: `/vsigzip/${path.join(demDir, "S46W066.hgt.gz")}`, width: 3601, height: 3601, lon0: -66, lat0: -45, perDegree: 3600, count: 20_000, window: [-65.9799, -45.0501, -65.9549, -45.0251] },
  ];
}

/** Our answer at a point given in the source's own longitudes (0..360 for ETOPO5). */
function ours(store: ElevationStore, lat: number, lon: number): { metres: number; source: string } | undefined {
  const a = store.lookup(lat, lon > 180 ? lon - 360 : lon);
  return a === undefined ? undefined : { metres: a.metres, source: a.source };
}

export async function compareWithGdal(store: ElevationStore, demDir: string, workDir: string, random: () => number): Promise<GdalComparison[]> {
  const out: GdalComparison[] = [];
  for (const src of sources(demDir)) {
    const isGlobal = src.name.startsWith("etopo5");
    const pixels: Array<[number, number]> = [];
    while (pixels.length < src.count) {
      const col = Math.floor(random() * src.width);
      const row = Math.floor(random() * src.height);
      const lat = src.lat0 - row / src.perDegree;
      const lon = src.lon0 + col / src.perDegree;
      // ETOPO5 pixels where an SRTM tile answers are compared with SRTM's own files instead.
      if (isGlobal && ours(store, lat, lon)?.source !== "etopo5") continue;
      pixels.push([col, row]);
    }
    const stdout = execFileSync("gdallocationinfo", [...NO_PROPERTIES, "-valonly", src.gdalPath], {
      input: pixels.map(([c, r]) => `${c} ${r}`).join("\n") + "\n",
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    const values = stdout.trim().split("\n").map(Number);
    let mismatches = 0;
    for (const [k, [col, row]] of pixels.entries()) {
      const a = ours(store, src.lat0 - row / src.perDegree, src.lon0 + col / src.perDegree);
      if (a === undefined || a.metres !== values[k]) mismatches++;
    }

    const [w, s, e, n] = src.window;
    const size = 150;
    const warped = path.join(workDir, `gdal-bilinear-${out.length}.tif`);
    execFileSync("gdalwarp", [...NO_PROPERTIES, "-q", "-overwrite", "-r", "bilinear", "-ot", "Float32", "-te", String(w), String(s), String(e), String(n), "-ts", String(size), String(size), src.gdalPath, warped]);
    const image = await (await fromFile(warped)).getImage();
    const grid = (await image.readRasters({ interleave: true })) as unknown as Float32Array;
    let maxDiff = 0;
    let over = 0;
    for (let j = 0; j < size; j++) {
      for (let i = 0; i < size; i++) {
        const lon = w + ((i + 0.5) * (e - w)) / size;
        const lat = n - ((j + 0.5) * (n - s)) / size;
        const a = ours(store, lat, lon);
        const d = a === undefined ? Infinity : Math.abs(a.metres - grid[j * size + i]!);
        if (d > maxDiff) maxDiff = d;
        if (d > 0.5) over++;
      }
    }
    out.push({ source: src.name, pixels: pixels.length, pixelMismatches: mismatches, bilinearPoints: size * size, bilinearMaxAbsDiffM: maxDiff, bilinearOver05: over });
  }
  return out;
}
