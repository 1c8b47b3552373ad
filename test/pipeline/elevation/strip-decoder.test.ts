import { readFileSync } from "node:fs";
import path from "node:path";
import { fromArrayBuffer } from "geotiff";
import { describe, expect, it } from "vitest";
import { EMBEDDED_DIR, PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { parseFirstIfd } from "../../../datasets/elevation/tiff-ifd.ts";
import { decodeStripsFast } from "../../../pipeline/elevation/strip-decoder.ts";

/** geotiff.js, an independent decoder, as the reference. */
async function viaGeotiffJs(bytes: Buffer): Promise<number[]> {
  const image = await (await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)).getImage();
  return Array.from((await image.readRasters({ interleave: true })) as unknown as ArrayLike<number>);
}

describe("decodeStripsFast", () => {
  it("decodes ETOPO5 (int16, one DEFLATE strip per row) exactly as geotiff.js does", async () => {
    const bytes = readFileSync(path.join(EMBEDDED_DIR, "dem/etopo5.tif"));
    const fast = decodeStripsFast(bytes, parseFirstIfd(bytes, "etopo5.tif"), 4320, 2161, "etopo5.tif");
    expect(fast).toBeInstanceOf(Int16Array);
    expect(Array.from(fast!)).toEqual(await viaGeotiffJs(bytes));
  }, 60_000);

  it("decodes the float32 uncompressed ETOPO1 window exactly as geotiff.js does", async () => {
    const bytes = readFileSync(path.join(PROJECT_ROOT, "test/fixtures/elevation/etopo1-1deg-window.tif"));
    const fast = decodeStripsFast(bytes, parseFirstIfd(bytes, "w.tif"), 40, 20, "w.tif");
    expect(fast).toBeInstanceOf(Float32Array);
    expect(Array.from(fast!)).toEqual(await viaGeotiffJs(bytes));
  });

  it("leaves other layouts to geotiff.js", () => {
    const bytes = readFileSync(path.join(PROJECT_ROOT, "test/fixtures/elevation/python-rgba.tiff"));
    expect(decodeStripsFast(bytes, parseFirstIfd(bytes, "p.tiff"), 16, 16, "p.tiff")).toBeUndefined();
  });

  it("refuses a truncated strip naming its offset", () => {
    const bytes = readFileSync(path.join(EMBEDDED_DIR, "dem/etopo5.tif"));
    const cut = bytes.subarray(0, 4_000_000);
    expect(() => decodeStripsFast(cut, parseFirstIfd(cut, "etopo5.tif"), 4320, 2161, "etopo5.tif")).toThrow(/etopo5\.tif, offset \d+: expected strip \d+ of \d+ bytes within the file, got a file of 4000000 bytes \(truncated\)/);
  });
});
