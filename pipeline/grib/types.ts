/**
 * The contract between the GRIB decoders (pipeline/grib/) and their users (the forecast step,
 * grib-inspect). Decoding is lazy: scanning lists messages without decoding values.
 */

export type StatisticalProcess = "instant" | "accumulation" | "average" | "maximum" | "minimum" | "other";

export interface RegularLatLonGrid {
  kind: "latlon";
  ni: number;
  nj: number;
  /** Degrees; first grid point as stored (scan order given by `scanMode`). */
  lat1: number;
  lon1: number;
  lat2: number;
  lon2: number;
  /** Increments in degrees (positive). */
  di: number;
  dj: number;
  /** GRIB scanning mode flags (Code table 3.4 / GRIB1 table 8). */
  scanMode: number;
}

export interface ProjectedGrid {
  kind: "lambert" | "polar-stereographic" | "other";
  template: number;
  ni: number;
  nj: number;
  /** Template-specific parameters, in degrees and metres. */
  params: Record<string, number>;
}

export type GridDescription = RegularLatLonGrid | ProjectedGrid;

/** One field (GRIB2: one section 4-7 set inside a message; GRIB1: one message). */
export interface GribField {
  /** 1-based index in file order, the way wgrib2 and grib_ls count. */
  index: number;
  edition: 1 | 2;
  /** Byte offset and length of the whole message in the file. */
  messageOffset: number;
  messageLength: number;
  /** GRIB2: discipline, category, number. GRIB1: table version, parameter (category = table). */
  discipline: number;
  category: number;
  number: number;
  /** Short name (NCEP/wgrib2 style, e.g. "TMP", "APCP"); "var<d>_<c>_<n>" when unknown. */
  shortName: string;
  /**
   * Level type code (GRIB2 code table 4.5 / GRIB1 table 3) and value in that type's unit: GRIB2
   * SI units (Pa for isobaric levels, m for heights and depths); GRIB1 the octets' own units (hPa
   * for type 100, and for layer types the first of the two one-octet values, the second being
   * `secondLevelValue`). 0 for surfaces without a value.
   */
  levelType: number;
  levelValue: number;
  /** Human-readable level, wgrib2 style ("2 m above ground", "surface", "500 mb"). */
  level: string;
  referenceTime: Date;
  /** Hours from the reference time: forecast start and end (equal for instantaneous fields). */
  startHour: number;
  endHour: number;
  statistic: StatisticalProcess;
  /** Product definition template (GRIB2 4.x) or -1 for GRIB1. */
  productTemplate: number;
  /** Data representation template (GRIB2 5.x) or GRIB1 packing description. */
  packingTemplate: number;
  grid: GridDescription;
  numberOfPoints: number;
  /** Half the packing precision (0.5 * 2^E * 10^-D): the tolerance for reference comparisons. */
  halfPrecision: number;
  /** Originating centre (GRIB2 section 1 / GRIB1 PDS octet 5; 7 = NCEP). */
  centre: number;
  /** Layers ("0-0.1 m below ground", "30-0 mb above ground"): the second surface, in the same units. */
  secondLevelType?: number;
  secondLevelValue?: number;
  /** Ensemble member (product templates 4.1 and 4.11): code table 4.6 type and perturbation number. */
  ensemble?: { type: number; perturbation: number; members: number };
  /**
   * Set when the field cannot be decoded (e.g. "GRIB2 data representation template 5.40 (JPEG 2000)
   * is not supported"): scanning still lists it, `decodeField` throws UnsupportedGribError.
   */
  unsupported?: string;
  /** Where the decoder finds this field's sections. */
  sections: GribSectionOffsets;
}

/** Byte offsets in the file of the sections a field is decoded from; -1 when absent. */
export interface GribSectionOffsets {
  /** GRIB2 section 3 / GRIB1 grid description section. */
  grid: number;
  /** GRIB2 section 4 / GRIB1 product definition section. */
  product: number;
  /** GRIB2 section 5; -1 for GRIB1 (its binary data section carries the packing). */
  representation: number;
  /** The bitmap in force: GRIB2 section 6 with indicator 0 (an earlier one for 254) / GRIB1 BMS. */
  bitmap: number;
  /** GRIB2 section 7 / GRIB1 binary data section. */
  data: number;
}
