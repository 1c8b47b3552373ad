/**
 * Reads the georeferencing of a GeoTIFF directory into a DemGrid (centre of the first pixel plus
 * pixel size), honouring GTRasterTypeGeoKey: with PixelIsArea (the default) the tiepoint is the
 * top-left corner of the first pixel, with PixelIsPoint it is that pixel's centre.
 * Only north-up, unrotated geographic (degree) grids are accepted; anything else is refused with
 * the offset of the entry at fault.
 */
import { DataFormatError } from "../common/errors.ts";
import { snapTo, type DemGrid } from "./grid.ts";
import type { TiffDirectory } from "./tiff-ifd.ts";
import { GeoKey, MODEL_TYPE_GEOGRAPHIC, RasterType, Tag } from "./tiff-tags.ts";

export interface GeoKeys {
  modelType?: number;
  rasterType: number;
  geographicType?: number;
}

export function readGeoKeys(dir: TiffDirectory, file: string): GeoKeys {
  const e = dir.entries.get(Tag.GeoKeyDirectory);
  const keys: GeoKeys = { rasterType: RasterType.PixelIsArea };
  if (e === undefined) return keys;
  const v = e.values;
  if (v.length < 4 || v.length < 4 + 4 * v[3]!) {
    throw new DataFormatError({ file, offset: e.entryOffset }, "a GeoKeyDirectory of 4 + 4 x N shorts", `${v.length} shorts`);
  }
  for (let k = 0; k < v[3]!; k++) {
    const [id, location, , value] = v.slice(4 + 4 * k, 8 + 4 * k) as [number, number, number, number];
    if (location !== 0) continue; // keys stored in other tags (citations, doubles) are not needed
    if (id === GeoKey.GTModelType) keys.modelType = value;
    else if (id === GeoKey.GTRasterType) keys.rasterType = value;
    else if (id === GeoKey.GeographicType) keys.geographicType = value;
  }
  return keys;
}

export function gridFromDirectory(dir: TiffDirectory, width: number, height: number, file: string): DemGrid {
  const keys = readGeoKeys(dir, file);
  const geo = dir.entries.get(Tag.GeoKeyDirectory);
  if (keys.modelType !== undefined && keys.modelType !== MODEL_TYPE_GEOGRAPHIC) {
    throw new DataFormatError({ file, offset: geo?.entryOffset }, "GTModelTypeGeoKey 2 (geographic latitude/longitude)", `${keys.modelType} (projected or geocentric grids are not supported)`);
  }
  const transform = dir.entries.get(Tag.ModelTransformation);
  if (transform !== undefined) {
    throw new DataFormatError({ file, offset: transform.entryOffset }, "ModelTiepoint + ModelPixelScale (north-up grid)", "a ModelTransformation matrix (rotated grids are not supported)");
  }
  const tie = dir.entries.get(Tag.ModelTiepoint);
  const scale = dir.entries.get(Tag.ModelPixelScale);
  if (tie === undefined || scale === undefined) {
    throw new DataFormatError({ file, offset: dir.ifdOffset }, "ModelTiepoint and ModelPixelScale tags", "a TIFF without georeferencing");
  }
  if (tie.values.length < 6 || scale.values.length < 2) {
    throw new DataFormatError({ file, offset: tie.values.length < 6 ? tie.entryOffset : scale.entryOffset }, "6 tiepoint and 2 or 3 scale values", `${tie.values.length} and ${scale.values.length}`);
  }
  const [i, j, , x, y] = tie.values as [number, number, number, number, number];
  const sx = scale.values[0]!;
  const sy = scale.values[1]!;
  if (!(sx > 0) || !(sy > 0)) {
    throw new DataFormatError({ file, offset: scale.entryOffset }, "positive pixel sizes", `${sx} x ${sy}`);
  }
  const resLonArcsec = snapTo(sx * 3600, 1e-3);
  const resLatArcsec = snapTo(sy * 3600, 1e-3);
  const half = keys.rasterType === RasterType.PixelIsPoint ? 0 : 0.5;
  // Centre of pixel (0, 0): the tiepoint is raster position (i, j).
  const lon0 = x + (half - i) * sx;
  const lat0 = y - (half - j) * sy;
  return {
    width,
    height,
    // `+ 0` turns a snapped -0 into 0.
    lon0: snapTo(lon0 * 3600, resLonArcsec / 1000) / 3600 + 0,
    lat0: snapTo(lat0 * 3600, resLatArcsec / 1000) / 3600 + 0,
    resLonArcsec,
    resLatArcsec,
  };
}
