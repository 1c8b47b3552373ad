/**
 * A fast path for the common layout of published GeoTIFF DEMs: stripped, one band, int16/uint16
 * (predictor 1 or 2) or float32 (predictor 1), uncompressed or DEFLATE. zlib's native inflate is
 * several times faster than geotiff.js's JavaScript one on ETOPO5's 2,161 strips. Any other layout
 * returns undefined and the caller decodes with geotiff.js.
 */
import { endianness } from "node:os";
import { inflateSync } from "node:zlib";
import { DataFormatError } from "../../datasets/common/errors.ts";
import type { TiffDirectory } from "../../datasets/elevation/tiff-ifd.ts";
import { Compression, Predictor, SampleFormat, Tag } from "../../datasets/elevation/tiff-tags.ts";

const HOST_LE = endianness() === "LE";

export function decodeStripsFast(bytes: Uint8Array, dir: TiffDirectory, width: number, height: number, file: string): ArrayLike<number> | undefined {
  const value = (tag: number, fallback: number): number => dir.entries.get(tag)?.values[0] ?? fallback;
  const compression = value(Tag.Compression, Compression.None);
  const predictor = value(Tag.Predictor, Predictor.None);
  const bits = value(Tag.BitsPerSample, 1);
  const format = value(Tag.SampleFormat, SampleFormat.Uint);
  const offsets = dir.entries.get(Tag.StripOffsets)?.values;
  const counts = dir.entries.get(Tag.StripByteCounts)?.values;
  const int16 = bits === 16 && (format === SampleFormat.Int || format === SampleFormat.Uint) && (predictor === Predictor.None || predictor === Predictor.Horizontal);
  const float32 = bits === 32 && format === SampleFormat.Float && predictor === Predictor.None;
  const compressions: readonly number[] = [Compression.None, Compression.AdobeDeflate, Compression.Deflate];
  if (!compressions.includes(compression) || !(int16 || float32) || offsets === undefined || counts === undefined || dir.entries.has(Tag.TileWidth)) return undefined;
  const rowsPerStrip = Math.min(value(Tag.RowsPerStrip, height), height);
  const strips = Math.ceil(height / rowsPerStrip);
  if (offsets.length !== strips || counts.length !== strips) {
    throw new DataFormatError({ file, offset: dir.entries.get(Tag.StripOffsets)!.entryOffset }, `${strips} strip offsets and byte counts`, `${offsets.length} and ${counts.length}`);
  }
  const bytesPer = bits / 8;
  const out = int16 ? (format === SampleFormat.Int ? new Int16Array(width * height) : new Uint16Array(width * height)) : new Float32Array(width * height);
  const le = dir.littleEndian;
  for (let s = 0; s < strips; s++) {
    const at = offsets[s]!;
    if (at + counts[s]! > bytes.byteLength) {
      throw new DataFormatError({ file, offset: at }, `strip ${s} of ${counts[s]} bytes within the file`, `a file of ${bytes.byteLength} bytes (truncated)`);
    }
    const stored = bytes.subarray(at, at + counts[s]!);
    let raw: Uint8Array;
    try {
      raw = compression === Compression.None ? stored : inflateSync(stored);
    } catch (err) {
      throw new DataFormatError({ file, offset: at }, `a zlib stream for strip ${s}`, (err as Error).message);
    }
    const rows = Math.min(rowsPerStrip, height - s * rowsPerStrip);
    if (raw.byteLength < rows * width * bytesPer) {
      throw new DataFormatError({ file, offset: at }, `${rows * width * bytesPer} decoded bytes in strip ${s}`, `${raw.byteLength}`);
    }
    const base = s * rowsPerStrip * width;
    const n = rows * width;
    if (le && HOST_LE && raw.byteOffset % bytesPer === 0) {
      // Same byte order as the host: a typed-array copy.
      const Ctor = out.constructor as Int16ArrayConstructor | Uint16ArrayConstructor | Float32ArrayConstructor;
      out.set(new Ctor(raw.buffer as ArrayBuffer, raw.byteOffset, n), base);
    } else {
      const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
      for (let k = 0; k < n; k++) {
        out[base + k] = int16 ? (format === SampleFormat.Int ? view.getInt16(2 * k, le) : view.getUint16(2 * k, le)) : view.getFloat32(4 * k, le);
      }
    }
    if (predictor === Predictor.Horizontal) {
      for (let r = 0; r < rows; r++) {
        const row = base + r * width;
        for (let c = 1; c < width; c++) out[row + c] = out[row + c]! + out[row + c - 1]!;
      }
    }
  }
  return out;
}
