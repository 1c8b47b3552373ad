/**
 * Pipeline step `elevation`: DEMs in their upstream formats → tiled GeoTIFF tiles (zlib streams, stored by default) plus the
 * coverage index (`<dataDir>/elevation/`).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { ConfigError } from "../../datasets/common/errors.ts";
import { EMBEDDED_DIR } from "../../datasets/common/paths.ts";
import { type PipelineStep, type StepContext, cacheDirOf } from "../common/step.ts";
import { StepOptions } from "../common/options.ts";
import { buildElevation } from "./build.ts";
import { DEFAULT_TIFF_OPTIONS } from "./geotiff-writer.ts";

const EMBEDDED_DEM = path.join(EMBEDDED_DIR, "dem");
const EMBEDDED_GLOBAL = path.join(EMBEDDED_DEM, "etopo5.tif");
const EMBEDDED_HGT = ["N00E010.hgt.gz", "N00E011.hgt.zip", "S46W066.hgt.gz"].map((f) => path.join(EMBEDDED_DEM, f));

const HGT_FILE = /\.hgt(?:\.gz|\.zip)?$/i;

const USAGE = `Options:
  --global <file|url> A global GeoTIFF DEM (e.g. ETOPO5; .tif or .tif.gz; longitudes 0..360 are
                      rewrapped to -180..180). Repeatable; the finest answers first.
  --hgt <file|dir|url> SRTM tiles: .hgt, .hgt.gz or .hgt.zip files (or URLs, downloaded once
                      into <GEODATA_DATA_DIR>/.cache/downloads), or a directory of them.
                      Repeatable. 1" and 3" tiles may be mixed; voids are filled from the next
                      coarser DEM (SRTM3, then the global DEMs).
  --tif [name=]<file|url>
                      A regional GeoTIFF DEM (int16/float32, any registration): answers inside
                      its extent when it is the finest there. Repeatable. The source name (the
                      X-Elevation-Source header) defaults to the file's base name.
  --tile-size <n>     Internal GeoTIFF tile edge in pixels, a multiple of 16 (default ${DEFAULT_TIFF_OPTIONS.tileSize}).
  --level <0-9>       zlib level of the tiles (default ${DEFAULT_TIFF_OPTIONS.level}: stored, read with no
                      inflate; 1-9 compress, about half the disk, an inflate per lookup).
Output: <GEODATA_DATA_DIR>/elevation/ (index.bin + global/, srtm3/, srtm1/ GeoTIFFs), published atomically.`;

async function expandHgt(location: string): Promise<string[]> {
  const stat = await fs.stat(location).catch(() => undefined);
  if (stat?.isDirectory()) {
    const names = (await fs.readdir(location)).filter((n) => HGT_FILE.test(n)).sort();
    return names.map((n) => path.join(location, n));
  }
  return [location];
}

export async function runElevation(args: string[], ctx: StepContext): Promise<void> {
  const o = new StepOptions("elevation", args, { values: ["global", "hgt", "tif", "tile-size", "level"] });
  const globals = o.all("global");
  const hgt: string[] = [];
  for (const value of o.all("hgt")) hgt.push(...(await expandHgt(value)));
  const tifTiles: Array<{ location: string; source?: string }> = o.all("tif").map((value) => {
    const named = /^([a-z0-9_-]+)=(.+)$/i.exec(value);
    return named ? { source: named[1]!.toLowerCase(), location: named[2]! } : { location: value };
  });
  const tiff = { ...DEFAULT_TIFF_OPTIONS };
  tiff.tileSize = o.int("tile-size", tiff.tileSize, 16, 4096);
  if (tiff.tileSize % 16 !== 0) throw new ConfigError("--tile-size", "a multiple of 16", String(tiff.tileSize));
  tiff.level = o.int("level", tiff.level, 0, 9);
  if (globals.length === 0 && hgt.length === 0 && tifTiles.length === 0) throw new ConfigError("elevation", "at least one --global, --hgt or --tif input", "none");
  const downloadDir = cacheDirOf(ctx, "downloads");
  await buildElevation({ globals, hgtFiles: hgt, tifTiles, outDir: ctx.config.dataDir, tiff, downloadDir, logger: ctx.logger });
}

export const elevationStep: PipelineStep = {
  name: "elevation",
  summary: "DEMs (SRTM .hgt, GeoTIFF) → tiled GeoTIFF tiles with voids filled, plus the coverage index.",
  usage: USAGE,
  codeVersion: 1,
  embeddedDefault: {
    inputs: () => [EMBEDDED_GLOBAL, ...EMBEDDED_HGT],
    args: () => ["--global", EMBEDDED_GLOBAL, ...EMBEDDED_HGT.flatMap((f) => ["--hgt", f])],
  },
  run: runElevation,
};
