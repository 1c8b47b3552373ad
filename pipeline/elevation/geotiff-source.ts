/**
 * GeoTIFF DEMs as published (for example ETOPO: int16 or float32, stripped or tiled, any
 * compression geotiff.js decodes). Our own directory parser checks the layout first, so a file we
 * cannot use is refused naming the file and the offset of the entry at fault; then our strip
 * decoder (the common stripped DEFLATE layouts) or geotiff.js (everything else) decodes the
 * samples. Samples become int16 metres (floats rounded, halves away from zero); GDAL_NODATA, NaN
 * and, in int16 sources, -32768 (the SRTM convention) become the void value -32768.
 */
import path from "node:path";
import { fromArrayBuffer } from "geotiff";
import { DataFormatError } from "../../datasets/common/errors.ts";
import { gridFromDirectory } from "../../datasets/elevation/georeference.ts";
import { roundMetres, type DemGrid } from "../../datasets/elevation/grid.ts";
import { parseFirstIfd, type TiffDirectory } from "../../datasets/elevation/tiff-ifd.ts";
import { NODATA_INT16, SampleFormat, Tag } from "../../datasets/elevation/tiff-tags.ts";
import { openSource, type SourceOptions } from "../common/source.ts";
import { decodeStripsFast } from "./strip-decoder.ts";

export interface SourceRaster {
  /** Source name used in the index and the response header, e.g. `etopo5`. */
  source: string;
  grid: DemGrid;
  samples: Int16Array;
  displayName: string;
  rawBytes: number;
  /** Source samples that were void (nodata or NaN). */
  voids: number;
}

const SUPPORTED: Readonly<Record<number, readonly number[]>> = {
  [SampleFormat.Uint]: [8, 16],
  [SampleFormat.Int]: [16, 32],
  [SampleFormat.Float]: [32, 64],
};

function checkLayout(dir: TiffDirectory, file: string): { width: number; height: number } {
  const at = (tag: number): number => dir.entries.get(tag)?.entryOffset ?? dir.ifdOffset;
  const width = dir.entries.get(Tag.ImageWidth)?.values[0];
  const height = dir.entries.get(Tag.ImageLength)?.values[0];
  if (!width || !height) throw new DataFormatError({ file, offset: dir.ifdOffset }, "ImageWidth and ImageLength", "a directory without them");
  const spp = dir.entries.get(Tag.SamplesPerPixel)?.values[0] ?? 1;
  if (spp !== 1) throw new DataFormatError({ file, offset: at(Tag.SamplesPerPixel) }, "1 sample per pixel (a single-band DEM)", `${spp} samples per pixel`);
  const bits = dir.entries.get(Tag.BitsPerSample)?.values[0] ?? 1;
  const format = dir.entries.get(Tag.SampleFormat)?.values[0] ?? SampleFormat.Uint;
  const allowed = SUPPORTED[format];
  if (allowed === undefined || !allowed.includes(bits)) {
    throw new DataFormatError(
      { file, offset: at(allowed === undefined ? Tag.SampleFormat : Tag.BitsPerSample) },
      "elevation samples of uint8/16, int16/32 or float32/64",
      `SampleFormat ${format} with ${bits} bits per sample`,
    );
  }
  return { width, height };
}

/** Decodes a GeoTIFF DEM from bytes (already decompressed from any `.gz`). */
export async function decodeGeoTiffDem(bytes: Uint8Array, source: string, displayName: string): Promise<SourceRaster> {
  const dir = parseFirstIfd(bytes, displayName);
  const { width, height } = checkLayout(dir, displayName);
  const grid = gridFromDirectory(dir, width, height, displayName);
  const nodataText = dir.entries.get(Tag.GdalNodata)?.text?.trim();
  const nodata = nodataText ? Number(nodataText) : undefined;
  let values = decodeStripsFast(bytes, dir, width, height, displayName);
  if (values === undefined) {
    try {
      const tiff = await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
      const image = await tiff.getImage();
      values = (await image.readRasters({ interleave: true, samples: [0] })) as unknown as ArrayLike<number>;
    } catch (err) {
      throw new DataFormatError({ file: displayName }, "decodable GeoTIFF image data", (err as Error).message);
    }
  }
  if (values.length !== width * height) {
    throw new DataFormatError({ file: displayName }, `${width * height} samples`, `${values.length}`);
  }
  const samples = new Int16Array(values.length);
  let voids = 0;
  if (values instanceof Int16Array) {
    // Already int16 metres: only the no-data value needs mapping to our void value.
    samples.set(values);
    for (let k = 0; k < samples.length; k++) {
      if (samples[k] === nodata || samples[k] === NODATA_INT16) {
        samples[k] = NODATA_INT16;
        voids++;
      }
    }
    return { source, grid, samples, displayName, rawBytes: values.length * 2, voids };
  }
  for (let k = 0; k < values.length; k++) {
    const v = values[k]!;
    if (Number.isNaN(v) || v === nodata) {
      samples[k] = NODATA_INT16;
      voids++;
      continue;
    }
    const m = roundMetres(v);
    if (m <= NODATA_INT16 || m > 32767) {
      throw new DataFormatError({ file: displayName }, "elevations from -32767 to 32767 m", `${v} at sample ${k} (row ${Math.floor(k / width)}, column ${k % width})`);
    }
    samples[k] = m;
  }
  return { source, grid, samples, displayName, rawBytes: values.length * 2, voids };
}

/** The source name a file stands for: its base name without extensions, lower case (`etopo5.tif.gz` → `etopo5`). */
export function sourceNameOf(location: string): string {
  return path.basename(location).split(".")[0]!.toLowerCase().replace(/[^a-z0-9_-]/g, "-");
}

export async function readGeoTiffDem(location: string, source = sourceNameOf(location), options: SourceOptions = {}): Promise<SourceRaster> {
  const opened = await openSource(location, options);
  const chunks: Buffer[] = [];
  for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
  return decodeGeoTiffDem(Buffer.concat(chunks), source, opened.displayName);
}
