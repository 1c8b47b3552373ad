import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataFormatError } from "../../../datasets/common/errors.ts";
import { EMBEDDED_DIR, PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { readGeoTiffDem, sourceNameOf } from "../../../pipeline/elevation/geotiff-source.ts";
import { rewrapToMinus180 } from "../../../pipeline/elevation/rewrap.ts";

const FIXTURES = path.join(PROJECT_ROOT, "test/fixtures/elevation");
const ETOPO5 = path.join(EMBEDDED_DIR, "dem/etopo5.tif");

describe("GeoTIFF DEM sources", () => {
  it("reads ETOPO5 as grid-registered 5' nodes from 0 to 359°55' and 90 to -90", async () => {
    const dem = await readGeoTiffDem(ETOPO5);
    expect(dem.source).toBe("etopo5");
    expect(dem.grid).toEqual({ width: 4320, height: 2161, lon0: 0, lat0: 90, resLonArcsec: 300, resLatArcsec: 300 });
    // Reference values: GDAL 3.6 `gdallocationinfo -valonly -wgs84 etopo5.tif <lon> <lat>`.
    const at = (lat: number, lon360: number): number => dem.samples[Math.round((90 - lat) * 12) * 4320 + Math.round(lon360 * 12)]!;
    expect(at(90, 0)).toBe(-4290);
    expect(at(-90, 0)).toBe(2810);
    expect(at(40, 260)).toBe(723);
    expect(at(0, 330)).toBe(-3993);
    expect(at(28, 86 + 11 / 12)).toBe(6096);
  });

  it("rewraps 0..360 longitudes to -180..180 without moving any value", async () => {
    const dem = await readGeoTiffDem(ETOPO5);
    const wrapped = rewrapToMinus180(dem.grid, dem.samples);
    expect(wrapped.grid.lon0).toBe(-180);
    expect(wrapped.shiftColumns).toBe(2160);
    const row = 600; // 40°N
    // 100°W is column (260 * 12) = 3120 in the source and (80 * 12) = 960 after the rewrap.
    expect(wrapped.samples[row * 4320 + 960]).toBe(723);
    // 180° (source column 2160) becomes column 0; 0° becomes column 2160.
    for (const r of [0, 600, 1080, 2160]) {
      expect(wrapped.samples[r * 4320]).toBe(dem.samples[r * 4320 + 2160]);
      expect(wrapped.samples[r * 4320 + 2160]).toBe(dem.samples[r * 4320]);
      expect(wrapped.samples[r * 4320 + 4319]).toBe(dem.samples[r * 4320 + 2159]);
    }
  });

  it("reads a float32 stripped GeoTIFF (ETOPO1 window) with area registration", async () => {
    const dem = await readGeoTiffDem(path.join(FIXTURES, "etopo1-1deg-window.tif"));
    expect(dem.source).toBe("etopo1-1deg-window");
    // GDAL: Origin = (-30.5, 50.5), pixel 1° → first centre at 30°W, 50°N.
    expect(dem.grid).toEqual({ width: 40, height: 20, lon0: -30, lat0: 50, resLonArcsec: 3600, resLatArcsec: 3600 });
    // GDAL 3.6 `gdallocationinfo -valonly` at pixel (x, y).
    expect(dem.samples[0]).toBe(-2887);
    expect(dem.samples[7 * 40 + 12]).toBe(-3896);
    expect(dem.samples[10 * 40 + 30]).toBe(1);
    expect(dem.samples[19 * 40 + 39]).toBe(244);
  });

  it("reads PixelIsPoint georeferencing as pixel centres (same grid as the area-registered file)", async () => {
    const area = await readGeoTiffDem(path.join(FIXTURES, "etopo1-1deg-window.tif"));
    const point = await readGeoTiffDem(path.join(FIXTURES, "etopo1-1deg-window-point.tif"));
    // Tiepoint (-30, 50) with GTRasterTypeGeoKey 2: that is the centre of pixel (0, 0) itself.
    expect(point.grid).toEqual(area.grid);
    expect(Array.from(point.samples)).toEqual(Array.from(area.samples));
  });

  it("refuses a TIFF with an unsupported layout naming the file and the entry's offset", async () => {
    const err = await readGeoTiffDem(path.join(FIXTURES, "python-rgba.tiff")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataFormatError);
    // The IFD starts at byte 1032; SamplesPerPixel (277) is its 10th entry: 1032 + 2 + 9 * 12 = 1142.
    expect((err as DataFormatError).where).toEqual({ file: "python-rgba.tiff", offset: 1142 });
    expect((err as Error).message).toContain("expected 1 sample per pixel (a single-band DEM), got 4 samples per pixel");
  });

  it("names sources after the file", () => {
    expect(sourceNameOf("/a/b/etopo5.tif.gz")).toBe("etopo5");
    expect(sourceNameOf("GEBCO_2024.tif")).toBe("gebco_2024");
  });
});
