/**
 * The elevation build end to end on real DEMs: SRTM3 N00E010 with a block of pixels set to the SRTM
 * void value (-32768) to exercise void filling (no real tile we have carries voids), SRTM1 S46W066
 * and the global ETOPO5. Expected fills come from ETOPO5's nodes read with geotiff.js.
 */
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { promises as fs, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { fromFile } from "geotiff";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEnvelope } from "../../../datasets/artifact/envelope.ts";
import { DATASETS } from "../../../datasets/catalog.ts";
import { DataFormatError } from "../../../datasets/common/errors.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { EMBEDDED_DIR, PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { DemTiff } from "../../../datasets/elevation/dem-tiff.ts";
import { decodeIndexPayload } from "../../../datasets/elevation/index-format.ts";
import { buildElevation } from "../../../pipeline/elevation/build.ts";
import { encodeDemTiff } from "../../../pipeline/elevation/geotiff-writer.ts";
import { readHgt } from "../../../pipeline/elevation/hgt.ts";

const DEM = path.join(EMBEDDED_DIR, "dem");
const ETOPO5 = path.join(DEM, "etopo5.tif");
const hgt = gunzipSync(readFileSync(path.join(DEM, "N00E010.hgt.gz")));
/** Voided pixels: rows 500..519, columns 700..719, plus the tile's corner pixel (0, 0). */
const VOIDS: Array<[number, number]> = [[0, 0]];
for (let r = 500; r < 520; r++) for (let c = 700; c < 720; c++) VOIDS.push([r, c]);

function hasGdal(): boolean {
  try {
    execFileSync("gdalinfo", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

let work: string;
let etopo: Int16Array;

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), "elev-build-"));
  const voided = Buffer.from(hgt);
  for (const [r, c] of VOIDS) voided.writeInt16BE(-32768, 2 * (r * 1201 + c));
  await fs.mkdir(path.join(work, "in"));
  await fs.writeFile(path.join(work, "in", "N00E010.hgt"), voided);
  const image = await (await fromFile(ETOPO5)).getImage();
  etopo = (await image.readRasters({ interleave: true })) as unknown as Int16Array;
  await buildElevation({
    globals: [ETOPO5],
    hgtFiles: [path.join(work, "in", "N00E010.hgt"), path.join(DEM, "S46W066.hgt.gz")],
    outDir: work,
    logger: silentLogger,
  });
}, 120_000);

afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

/** ETOPO5 bilinear at a point, by hand from the source nodes (0..360 columns, rows from 90°N). */
function etopoBilinear(lat: number, lon: number): number {
  const x = (((lon % 360) + 360) % 360) * 12;
  const y = (90 - lat) * 12;
  const c0 = Math.floor(x);
  const r0 = Math.floor(y);
  const fx = x - c0;
  const fy = y - r0;
  const v = (r: number, c: number): number => etopo[r * 4320 + (c % 4320)]!;
  return (1 - fy) * ((1 - fx) * v(r0, c0) + fx * v(r0, c0 + 1)) + fy * ((1 - fx) * v(r0 + 1, c0) + fx * v(r0 + 1, c0 + 1));
}

describe("elevation build", () => {
  it("writes the index with every raster and the void counts", async () => {
    const file = path.join(work, DATASETS.elevation.file);
    const opened = openEnvelope(await fs.readFile(file), { magic: "GEODELEV", formatVersion: 1, file });
    const index = decodeIndexPayload(opened.payload, file, opened.payloadOffset);
    expect(index.rasters.map((r) => [r.file, r.source, r.kind])).toEqual([
      ["global/etopo5.tif", "etopo5", "global"],
      ["srtm3/N00E010.tif", "srtm3", "tile"],
      ["srtm1/S46W066.tif", "srtm1", "tile"],
    ]);
    const tile = index.rasters[1]!;
    expect(tile.sourceVoids).toBe(VOIDS.length);
    expect(tile.voidsFilled).toBe(VOIDS.length);
    expect(opened.metadata.counts).toMatchObject({ rasters: 3, voidsFilled: VOIDS.length, voidsLeft: 0 });
    expect(opened.metadata.sources.map((s) => s.name)).toEqual(["etopo5.tif", "N00E010.hgt", "S46W066.hgt.gz"]);
  });

  it("fills voids with ETOPO5's bilinear value and keeps every other pixel as in the .hgt", () => {
    const tiff = DemTiff.open(path.join(work, "elevation/srtm3/N00E010.tif"));
    const out = tiff.readAllSync();
    tiff.close();
    for (const [r, c] of VOIDS) {
      const expected = etopoBilinear(1 - r / 1200, 10 + c / 1200);
      expect(Math.abs(out[r * 1201 + c]! - expected)).toBeLessThanOrEqual(0.5);
    }
    const voided = new Set(VOIDS.map(([r, c]) => r * 1201 + c));
    let checked = 0;
    for (let k = 0; k < 1201 * 1201; k += 997) {
      if (voided.has(k)) continue;
      expect(out[k]).toBe(hgt.readInt16BE(2 * k));
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it("builds tiles several at once, recorded in input order, each file the bytes of the one-at-a-time encoder", async () => {
    // Six tiles of the real N00E010 and N00E011 under other names (as the scale rehearsal does),
    // in an order that is not sorted, plus a duplicate name that must be refused.
    const dir = path.join(work, "many");
    await fs.mkdir(path.join(dir, "in"), { recursive: true });
    const n00e011 = (await readHgt(path.join(DEM, "N00E011.hgt.zip"))).samples;
    const bigEndian = (samples: Int16Array): Buffer => {
      const b = Buffer.from(samples.buffer.slice(samples.byteOffset, samples.byteOffset + samples.byteLength));
      return os.endianness() === "LE" ? b.swap16() : b;
    };
    const names = ["S10W070", "N45E006", "N00E010", "S01E011", "N27E086", "N12W001"];
    const inputs: string[] = [];
    for (const [k, name] of names.entries()) {
      const file = path.join(dir, "in", `${name}.hgt`);
      await fs.writeFile(file, k % 2 === 0 ? hgt : bigEndian(n00e011));
      inputs.push(file);
    }
    await buildElevation({ globals: [ETOPO5], hgtFiles: inputs, outDir: dir, logger: silentLogger });
    const file = path.join(dir, DATASETS.elevation.file);
    const opened = openEnvelope(await fs.readFile(file), { magic: "GEODELEV", formatVersion: 1, file });
    expect(decodeIndexPayload(opened.payload, file, opened.payloadOffset).rasters.map((r) => r.file)).toEqual(["global/etopo5.tif", ...names.map((n) => `srtm3/${n}.tif`)]);
    expect(opened.metadata.sources.map((s) => s.name)).toEqual(["etopo5.tif", ...names.map((n) => `${n}.hgt`)]);
    for (const name of names) {
      const tile = await readHgt(path.join(dir, "in", `${name}.hgt`));
      const expected = Buffer.concat(encodeDemTiff(tile.samples, tile.grid));
      expect((await fs.readFile(path.join(dir, "elevation", "srtm3", `${name}.tif`))).equals(expected), name).toBe(true);
    }
    // The same tile name twice (a .gz copy of one input) is refused, whichever is built first.
    await fs.writeFile(path.join(dir, "in", "N45E006.hgt.gz"), gzipSync(await fs.readFile(inputs[1]!)));
    await expect(buildElevation({ globals: [ETOPO5], hgtFiles: [...inputs, path.join(dir, "in", "N45E006.hgt.gz")], outDir: dir, logger: silentLogger })).rejects.toThrow(/one srtm3 file per tile/);
  });

  it("writes GeoTIFFs that geotiff.js decodes to the same samples", async () => {
    const image = await (await fromFile(path.join(work, "elevation/srtm1/S46W066.tif"))).getImage();
    expect(image.getWidth()).toBe(3601);
    expect(image.getTileWidth()).toBe(32);
    const values = (await image.readRasters({ interleave: true })) as unknown as Int16Array;
    const raw = gunzipSync(readFileSync(path.join(DEM, "S46W066.hgt.gz")));
    for (let k = 0; k < values.length; k += 1009) expect(values[k]).toBe(raw.readInt16BE(2 * k));
    // geotiff.js reads the origin as the top-left corner: half a pixel north-west of N45°/W66°.
    const [x, y] = image.getOrigin();
    expect(x).toBeCloseTo(-66 - 0.5 / 3600, 12);
    expect(y).toBeCloseTo(-45 + 0.5 / 3600, 12);
  });

  it.skipIf(!hasGdal())("opens in GDAL with DEFLATE (stored tiles, no predictor), nodata and the SRTM driver's georeferencing", () => {
    const info = execFileSync("gdalinfo", [path.join(work, "elevation/srtm3/N00E010.tif")], { encoding: "utf8" });
    expect(info).toContain("COMPRESSION=DEFLATE");
    expect(info).not.toContain("PREDICTOR=");
    expect(info).toContain("NoData Value=-32768");
    expect(info).toMatch(/Block=32x32 Type=Int16/);
    expect(info).toContain("Origin = (9.999583333333334,1.000416666666667)");
    const srtm = execFileSync("gdalinfo", [path.join(work, "elevation/srtm1/S46W066.tif")], { encoding: "utf8" });
    expect(srtm).toContain("Origin = (-66.000138888888884,-44.999861111111109)");
    // Pixel (x=1200, y=300) from GDAL vs the .hgt bytes at row 300, column 1200.
    const v = execFileSync("gdallocationinfo", ["-valonly", path.join(work, "elevation/srtm3/N00E010.tif"), "1200", "300"], { encoding: "utf8" });
    expect(Number(v.trim())).toBe(hgt.readInt16BE(2 * (300 * 1201 + 1200)));
    const g = execFileSync("gdallocationinfo", ["-valonly", "-wgs84", path.join(work, "elevation/global/etopo5.tif"), "-100", "40"], { encoding: "utf8" });
    expect(Number(g.trim())).toBe(723);
  });

  it("downloads URL inputs once and records the URL as the source", async () => {
    const served: string[] = [];
    const http = createServer((req, res) => {
      served.push(req.url ?? "");
      res.end(readFileSync(path.join(DEM, path.basename(req.url ?? ""))));
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/N00E011.hgt.zip`;
    const out = path.join(work, "from-url");
    try {
      for (let run = 0; run < 2; run++) {
        await buildElevation({ globals: [], hgtFiles: [url], outDir: out, downloadDir: path.join(work, "downloads"), logger: silentLogger });
      }
    } finally {
      http.close();
    }
    expect(served).toEqual(["/N00E011.hgt.zip"]);
    const file = path.join(out, DATASETS.elevation.file);
    const opened = openEnvelope(await fs.readFile(file), { magic: "GEODELEV", formatVersion: 1, file });
    expect(opened.metadata.sources).toEqual([expect.objectContaining({ name: "N00E011.hgt.zip", location: url, bytes: 1548174 })]);
    expect(decodeIndexPayload(opened.payload, file, opened.payloadOffset).rasters.map((r) => r.file)).toEqual(["srtm3/N00E011.tif"]);
  });

  it("leaves the previous dataset in place when a build fails", async () => {
    const index = path.join(work, DATASETS.elevation.file);
    const before = await fs.readFile(index);
    const err = await buildElevation({
      globals: [],
      hgtFiles: [path.join(DEM, "N00E011.hgt.zip"), path.join(PROJECT_ROOT, "test/fixtures/elevation/truncated/N00E010.hgt")],
      outDir: work,
      logger: silentLogger,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataFormatError);
    expect((err as Error).message).toContain("N00E010.hgt, offset 4096");
    expect(await fs.readFile(index)).toEqual(before);
    expect((await fs.readdir(work)).filter((n) => n.startsWith("elevation."))).toEqual([]);
  });
});
