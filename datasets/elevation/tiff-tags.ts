/**
 * TIFF and GeoTIFF codes used by our DEM tile writer (pipeline) and reader (server, validation).
 * Values are the codes of the TIFF 6.0 and GeoTIFF 1.1 specifications (OGC 19-008r4).
 */

export const Tag = {
  ImageWidth: 256,
  ImageLength: 257,
  BitsPerSample: 258,
  Compression: 259,
  Photometric: 262,
  StripOffsets: 273,
  SamplesPerPixel: 277,
  RowsPerStrip: 278,
  StripByteCounts: 279,
  PlanarConfiguration: 284,
  Predictor: 317,
  TileWidth: 322,
  TileLength: 323,
  TileOffsets: 324,
  TileByteCounts: 325,
  SampleFormat: 339,
  ModelPixelScale: 33550,
  ModelTiepoint: 33922,
  ModelTransformation: 34264,
  GeoKeyDirectory: 34735,
  GdalMetadata: 42112,
  GdalNodata: 42113,
} as const;

/** TIFF field types (TIFF 6.0 section 2, plus BigTIFF's LONG8 for completeness of error messages). */
export const FieldType = {
  BYTE: 1,
  ASCII: 2,
  SHORT: 3,
  LONG: 4,
  RATIONAL: 5,
  SBYTE: 6,
  UNDEFINED: 7,
  SSHORT: 8,
  SLONG: 9,
  SRATIONAL: 10,
  FLOAT: 11,
  DOUBLE: 12,
} as const;

/** Bytes per value of each field type. */
export const FIELD_TYPE_BYTES: Readonly<Record<number, number>> = {
  1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8,
};

export const Compression = { None: 1, AdobeDeflate: 8, Deflate: 32946 } as const;
export const Predictor = { None: 1, Horizontal: 2 } as const;
export const SampleFormat = { Uint: 1, Int: 2, Float: 3 } as const;

export const GeoKey = {
  GTModelType: 1024,
  GTRasterType: 1025,
  GeographicType: 2048,
  GeogAngularUnits: 2054,
} as const;

/** GTModelTypeGeoKey = 2: geographic latitude/longitude. */
export const MODEL_TYPE_GEOGRAPHIC = 2;
/** GTRasterTypeGeoKey: 1 = PixelIsArea (tiepoint at a pixel's corner), 2 = PixelIsPoint (at its centre). */
export const RasterType = { PixelIsArea: 1, PixelIsPoint: 2 } as const;
export const EPSG_WGS84 = 4326;
export const ANGULAR_UNIT_DEGREE = 9102;

/** The void / no-data value of SRTM and of our tiles. */
export const NODATA_INT16 = -32768;
