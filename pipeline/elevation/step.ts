/**
 * Pipeline step `elevation`: DEMs in their upstream formats → tiled DEFLATE GeoTIFF tiles plus the
 * coverage index (`<dataDir>/elevation/`).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { ConfigError } from "../../datasets/common/errors.ts";
import { EMBEDDED_DIR } from "../../datasets/common/paths.ts";
import type { PipelineStep, StepContext } from "../common/step.ts";
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
  --level <1-9>       DEFLATE level (default ${DEFAULT_TIFF_OPTIONS.level}).
Output: <GEODATA_DATA_DIR>/elevation/ (index.bin + global/, srtm3/, srtm1/ GeoTIFFs), published atomically.`;

async function expandHgt(location: string): Promise<string[]> {
  const stat = await fs.stat(location).catch(() => undefined);
  if (stat?.isDirectory()) {
    const names = (await fs.readdir(location)).filter((n) => HGT_FILE.test(n)).sort();
    return names.map((n) => path.join(location, n));
  }
  return [location];
}

function intOption(name: string, raw: string | undefined, min: number, max: number): number {
  if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new ConfigError(name, `an integer from ${min} to ${max}`, raw ?? "");
  return Number(raw);
}

export async function runElevation(args: string[], ctx: StepContext): Promise<void> {
  const globals: string[] = [];
  const hgt: string[] = [];
  const tifTiles: Array<{ location: string; source?: string }> = [];
  const tiff = { ...DEFAULT_TIFF_OPTIONS };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = args[i + 1];
    if (arg === "--global" || arg === "--hgt" || arg === "--tif") {
      if (value === undefined || value.startsWith("--")) throw new ConfigError(arg, "a path", value ?? "");
      if (arg === "--global") globals.push(value);
      else if (arg === "--hgt") hgt.push(...(await expandHgt(value)));
      else {
        const named = /^([a-z0-9_-]+)=(.+)$/i.exec(value);
        tifTiles.push(named ? { source: named[1]!.toLowerCase(), location: named[2]! } : { location: value });
      }
      i++;
    } else if (arg === "--tile-size") {
      tiff.tileSize = intOption(arg, value, 16, 4096);
      if (tiff.tileSize % 16 !== 0) throw new ConfigError(arg, "a multiple of 16", String(value));
      i++;
    } else if (arg === "--level") {
      tiff.level = intOption(arg, value, 1, 9);
      i++;
    } else {
      throw new ConfigError(arg, "--global, --hgt, --tif, --tile-size or --level", arg);
    }
  }
  if (globals.length === 0 && hgt.length === 0 && tifTiles.length === 0) throw new ConfigError("elevation", "at least one --global, --hgt or --tif input", "none");
  const downloadDir = path.join(ctx.config.dataDir, ".cache", "downloads");
  await buildElevation({ globals, hgtFiles: hgt, tifTiles, outDir: ctx.config.dataDir, tiff, downloadDir, logger: ctx.logger });
}

export const elevationStep: PipelineStep = {
  name: "elevation",
  summary: "DEMs (SRTM .hgt, GeoTIFF) → tiled DEFLATE GeoTIFF tiles with voids filled, plus the coverage index.",
  usage: USAGE,
  codeVersion: 1,
  embeddedDefault: {
    inputs: () => [EMBEDDED_GLOBAL, ...EMBEDDED_HGT],
    args: () => ["--global", EMBEDDED_GLOBAL, ...EMBEDDED_HGT.flatMap((f) => ["--hgt", f])],
  },
  run: runElevation,
};
