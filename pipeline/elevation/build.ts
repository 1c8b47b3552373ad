/**
 * Builds the elevation dataset: reads the global GeoTIFF DEMs and the SRTM `.hgt` tiles, fills
 * voids from the next coarser DEM, writes one tiled DEFLATE GeoTIFF per input tile, re-reads
 * every file with the server's reader to check it, writes the coverage index, and publishes the
 * directory atomically (a failed build leaves the previous dataset serving).
 */
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { DATASETS } from "../../datasets/catalog.ts";
import { publishDirectory, writeFileAtomic } from "../../datasets/artifact/atomic-write.ts";
import { writeArtifact } from "../../datasets/artifact/write-artifact.ts";
import type { SourceInfo } from "../../datasets/artifact/envelope.ts";
import { describeSourceFile } from "../../datasets/artifact/source-info.ts";
import { DataFormatError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { DemTiff } from "../../datasets/elevation/dem-tiff.ts";
import type { DemGrid } from "../../datasets/elevation/grid.ts";
import { encodeIndexPayload, type DemKind, type DemRasterEntry } from "../../datasets/elevation/index-format.ts";
import { NODATA_INT16 } from "../../datasets/elevation/tiff-tags.ts";
import { mapConcurrently } from "../common/map-concurrently.ts";
import { Progress } from "../common/progress.ts";
import { isUrl, localFileOf, type SourceOptions } from "../common/source.ts";
import { readGeoTiffDem, sourceNameOf, type SourceRaster } from "./geotiff-source.ts";
import { DEFAULT_TIFF_OPTIONS, encodeDemTiffAsync, type DemTiffOptions } from "./geotiff-writer.ts";
import { parseHgtName, readHgt } from "./hgt.ts";
import { rewrapToMinus180 } from "./rewrap.ts";
import { fillVoids, type FillResult, type FillSource } from "./void-fill.ts";

export interface ElevationBuildInput {
  /** GeoTIFF DEMs covering the globe (ETOPO5...), any order. */
  globals: string[];
  /** SRTM `.hgt`, `.hgt.gz`, `.hgt.zip` files (directories already expanded). */
  hgtFiles: string[];
  /** Regional GeoTIFF DEMs (answer inside their extent only), with an optional source name. */
  tifTiles?: Array<{ location: string; source?: string }>;
  /** The data directory; the dataset goes to `<outDir>/elevation`. */
  outDir: string;
  tiff?: DemTiffOptions;
  /** Where URL inputs are downloaded to (once). */
  downloadDir?: string;
  logger: Logger;
}

export interface ElevationBuildReport {
  rasters: number;
  inputBytes: number;
  rawDemBytes: number;
  outputBytes: number;
  elapsedS: number;
  voidsFilled: number;
  voidsLeft: number;
}

function extremes(samples: Int16Array): { min: number; max: number } {
  let min = 32767;
  let max = -32768;
  for (let k = 0; k < samples.length; k++) {
    const v = samples[k]!;
    if (v === NODATA_INT16) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min > max ? { min: 0, max: 0 } : { min, max };
}

function bytesOf(a: Int16Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

function voidCount(samples: Int16Array): number {
  let n = 0;
  for (let k = 0; k < samples.length; k++) if (samples[k] === NODATA_INT16) n++;
  return n;
}

/** SRTM tiles built at once: their compression and checks run in libuv's thread pool meanwhile. */
const CONCURRENT_TILES = 4;

/**
 * Writes one tile file and checks it by decoding it back with the reader the server uses. The
 * compression and the decoding run in libuv's thread pool, so several tiles proceed at once.
 */
async function writeChecked(file: string, grid: DemGrid, samples: Int16Array, options: DemTiffOptions): Promise<number> {
  await writeFileAtomic(file, await encodeDemTiffAsync(samples, grid, options));
  const tiff = DemTiff.open(file);
  try {
    const back = await tiff.readAll();
    // memcmp first; the pixel loop only to name the first difference.
    if (!bytesOf(back).equals(bytesOf(samples))) {
      for (let k = 0; k < samples.length; k++) {
        if (back[k] !== samples[k]) {
          throw new DataFormatError({ file, field: `pixel ${k}` }, `${samples[k]} as written`, `${back[k]} when read back`);
        }
      }
      throw new DataFormatError({ file }, `${samples.length} pixels as written`, `${back.length} when read back`);
    }
    return tiff.fileSize;
  } finally {
    tiff.close();
  }
}

export async function buildElevation(input: ElevationBuildInput): Promise<ElevationBuildReport> {
  const started = performance.now();
  const options = input.tiff ?? DEFAULT_TIFF_OPTIONS;
  const finalDir = path.join(input.outDir, path.dirname(DATASETS.elevation.file));
  const buildDir = `${finalDir}.build-${process.pid}-${randomBytes(4).toString("hex")}`;
  const entries: DemRasterEntry[] = [];
  const sources: SourceInfo[] = [];
  const report: ElevationBuildReport = { rasters: 0, inputBytes: 0, rawDemBytes: 0, outputBytes: 0, elapsedS: 0, voidsFilled: 0, voidsLeft: 0 };
  const filledBy: Record<string, number> = {};
  const tifTiles = input.tifTiles ?? [];
  const progress = new Progress(input.logger, "elevation", input.globals.length + tifTiles.length + input.hgtFiles.length, "files");
  const sourceOptions: SourceOptions = { logger: input.logger, ...(input.downloadDir ? { cacheDir: input.downloadDir } : {}) };
  /** A source's facts; a URL is recorded as given, with the size and digest of its download. */
  const describe = async (location: string): Promise<SourceInfo> => {
    const info = await describeSourceFile(await localFileOf(location, sourceOptions));
    return isUrl(location) ? { ...info, name: path.basename(new URL(location).pathname), location } : info;
  };

  const enter = (entry: DemRasterEntry): void => {
    entries.push(entry);
    report.outputBytes += entry.bytes;
    report.voidsFilled += entry.voidsFilled;
    report.voidsLeft += entry.sourceVoids - entry.voidsFilled;
  };
  const add = async (rel: string, source: string, kind: DemKind, grid: DemGrid, samples: Int16Array, sourceVoids: number, filled: number): Promise<void> => {
    const bytes = await writeChecked(path.join(buildDir, rel), grid, samples, options);
    enter({ file: rel, source, kind, grid, bytes, sourceVoids, voidsFilled: filled, ...extremes(samples) });
  };
  const account = (fill: { bySource: Record<string, number> }): void => {
    for (const [k, v] of Object.entries(fill.bySource)) filledBy[k] = (filledBy[k] ?? 0) + v;
  };

  try {
    await fs.mkdir(buildDir, { recursive: true });
    // Globals are written coarsest first, so each is filled from the coarser ones already done;
    // `globals` (the fill order for everything after) ends up finest first.
    const globals: FillSource[] = [];
    const loaded: SourceRaster[] = [];
    for (const file of input.globals) {
      const raster = await readGeoTiffDem(file, undefined, sourceOptions);
      const wrapped = rewrapToMinus180(raster.grid, raster.samples);
      loaded.push({ ...raster, grid: wrapped.grid, samples: wrapped.samples });
      report.rawDemBytes += raster.rawBytes;
      sources.push(await describe(file));
      progress.tick();
    }
    loaded.sort((a, b) => b.grid.resLonArcsec - a.grid.resLonArcsec);
    for (const g of loaded) {
      if (entries.some((e) => e.source === g.source)) throw new DataFormatError({ file: g.displayName }, "one global DEM per source name", `a second '${g.source}'`);
      const fill = fillVoids(g.grid, g.samples, globals);
      account(fill);
      await add(`global/${g.source}.tif`, g.source, "global", g.grid, g.samples, g.voids, fill.filled);
      globals.unshift({ source: g.source, grid: g.grid, samples: g.samples, clampLatitude: true });
    }

    // Regional GeoTIFF DEMs: voids filled from the coarser global DEMs.
    for (const t of tifTiles) {
      const raster = await readGeoTiffDem(t.location, t.source ?? sourceNameOf(t.location), sourceOptions);
      const rel = `${raster.source}/${sourceNameOf(t.location)}.tif`;
      if (entries.some((e) => e.file === rel)) throw new DataFormatError({ file: raster.displayName }, `one file named ${rel}`, "a second one");
      const fill = fillVoids(raster.grid, raster.samples, globals.filter((g) => g.grid.resLonArcsec > raster.grid.resLonArcsec));
      account(fill);
      await add(rel, raster.source, "tile", raster.grid, raster.samples, raster.voids, fill.filled);
      report.rawDemBytes += raster.rawBytes;
      sources.push(await describe(t.location));
      progress.tick();
    }

    // SRTM tiles, several at once, recorded in input order. A 1" tile whose name also has a 3"
    // input waits until that 3" tile is written (it is filled from it).
    const names = new Map<string, number>();
    for (const file of input.hgtFiles) {
      const corner = parseHgtName(file);
      if (corner === undefined) throw new DataFormatError({ file }, "an SRTM tile name such as N00E010.hgt", JSON.stringify(path.basename(file)));
      names.set(corner.name, (names.get(corner.name) ?? 0) + 1);
    }
    interface BuiltTile {
      rel: string;
      source: string;
      grid: DemGrid;
      bytes: number;
      voids: number;
      fill: FillResult;
      extremes: { min: number; max: number };
      rawBytes: number;
      info: SourceInfo;
    }
    const claimed = new Set<string>();
    const written = new Map<string, string>();
    const buildTile = async (file: string, allowDefer: boolean): Promise<BuiltTile | "deferred"> => {
      const tile = await readHgt(file, sourceOptions);
      if (allowDefer && tile.source === "srtm1" && (names.get(tile.name) ?? 0) > 1) return "deferred";
      const rel = `${tile.source}/${tile.name}.tif`;
      if (claimed.has(rel)) throw new DataFormatError({ file: tile.displayName }, `one ${tile.source} file per tile`, `a second ${tile.name}`);
      claimed.add(rel);
      const fillers: FillSource[] = [];
      const coarser = written.get(`srtm3/${tile.name}.tif`);
      if (tile.source === "srtm1" && coarser !== undefined) {
        const t = DemTiff.open(coarser);
        fillers.push({ source: "srtm3", grid: t.layout.grid, samples: await t.readAll(), clampLatitude: false });
        t.close();
      }
      fillers.push(...globals);
      const voids = voidCount(tile.samples);
      const fill = voids > 0 ? fillVoids(tile.grid, tile.samples, fillers) : { filled: 0, left: 0, bySource: {} };
      const bytes = await writeChecked(path.join(buildDir, rel), tile.grid, tile.samples, options);
      written.set(rel, path.join(buildDir, rel));
      const built = { rel, source: tile.source, grid: tile.grid, bytes, voids, fill, extremes: extremes(tile.samples), rawBytes: tile.rawBytes, info: await describe(file) };
      progress.tick();
      return built;
    };
    const record = (t: BuiltTile): void => {
      account(t.fill);
      enter({ file: t.rel, source: t.source, kind: "tile", grid: t.grid, bytes: t.bytes, sourceVoids: t.voids, voidsFilled: t.fill.filled, ...t.extremes });
      report.rawDemBytes += t.rawBytes;
      sources.push(t.info);
    };
    const results = await mapConcurrently(input.hgtFiles, CONCURRENT_TILES, (file) => buildTile(file, true));
    const deferred: string[] = [];
    results.forEach((r, k) => (r === "deferred" ? deferred.push(input.hgtFiles[k]!) : record(r)));
    for (const file of deferred) record((await buildTile(file, false)) as BuiltTile);

    for (const s of sources) report.inputBytes += s.bytes ?? 0;
    report.rasters = entries.length;
    const bySource: Record<string, number> = {};
    for (const e of entries) bySource[e.source] = (bySource[e.source] ?? 0) + 1;
    await writeArtifact(
      path.join(buildDir, path.basename(DATASETS.elevation.file)),
      {
        magic: DATASETS.elevation.magic,
        formatVersion: DATASETS.elevation.formatVersion,
        kind: "elevation",
        sources,
        counts: { rasters: entries.length, voidsFilled: report.voidsFilled, voidsLeft: report.voidsLeft, ...Object.fromEntries(Object.entries(bySource).map(([k, v]) => [`rasters.${k}`, v])) },
        extra: {
          tileSize: options.tileSize,
          deflateLevel: options.level,
          filledBySource: filledBy,
          inputBytes: report.inputBytes,
          outputBytes: report.outputBytes,
        },
      },
      [encodeIndexPayload({ rasters: entries })],
    );
    await publishDirectory(buildDir, finalDir);
  } catch (err) {
    await fs.rm(buildDir, { recursive: true, force: true });
    throw err;
  }
  report.elapsedS = (performance.now() - started) / 1000;
  progress.finish({ ...report, rawMBperS: Math.round((report.rawDemBytes / 1e6 / report.elapsedS) * 10) / 10 });
  return report;
}
