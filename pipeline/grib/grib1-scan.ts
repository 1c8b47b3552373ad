/**
 * One GRIB1 message: indicator (8 octets), product definition section (PDS), optional grid
 * description (GDS) and bitmap (BMS) sections, binary data section (BDS), "7777".
 * Regular latitude/longitude grids are described fully; Lambert (3) and polar stereographic (5)
 * GDS are parsed into parameters. Octet numbers in comments are the WMO manual's (1-based).
 */
import { ascii, s16, s24, u16, u24, u8 } from "./bytes.ts";
import { formatError } from "./errors.ts";
import { grib1ShortName } from "./grib1-names.ts";
import { spanIncrement } from "./grib2-grid.ts";
import { grib1ToGrib2Level, grib2LevelName } from "./level-names.ts";
import type { GribField, GridDescription, StatisticalProcess } from "./types.ts";

/** GRIB1 table 4 time units in hours (3 month, 4 year and longer have no fixed length). */
const UNIT_HOURS: Readonly<Record<number, number>> = { 0: 1 / 60, 1: 1, 2: 24, 10: 3, 11: 6, 12: 12, 13: 0.25, 14: 0.5, 254: 1 / 3600 };

/** Marks packingTemplate of GRIB1 fields: simple grid-point packing (BDS flag bits clear). */
export const GRIB1_SIMPLE_PACKING = 0;

interface TimeRange {
  startHour: number;
  endHour: number;
  statistic: StatisticalProcess;
}

/** Time range indicator (GRIB1 table 5) and P1/P2 (octets 19-20) in the unit of octet 18. */
function timeRange(indicator: number, p1: number, p2: number, unit: number, parameter: number): TimeRange {
  const h = UNIT_HOURS[unit] ?? NaN;
  const point = (t: number): TimeRange => ({ startHour: t * h, endHour: t * h, statistic: "instant" });
  const interval = (statistic: StatisticalProcess): TimeRange => ({ startHour: p1 * h, endHour: p2 * h, statistic });
  switch (indicator) {
    case 0: return point(p1);
    case 1: return point(0);
    // Valid over P1..P2: NCEP's maximum and minimum temperatures (parameters 15, 16) use it.
    case 2: return interval(parameter === 15 ? "maximum" : parameter === 16 ? "minimum" : "other");
    case 3: return interval("average");
    case 4: return interval("accumulation");
    case 5: return interval("other");
    case 10: return point(p1 * 256 + p2);
    // Other indicators (averages of analyses, climatologies...): P1..P2 with statistic "other".
    default: return interval("other");
  }
}

function readGds(b: Uint8Array, gds: number, file: string): GridDescription {
  const type = u8(b, gds + 5);
  const ni = u16(b, gds + 6);
  const nj = u16(b, gds + 8);
  const lat1 = s24(b, gds + 10) / 1000;
  const lon1 = s24(b, gds + 13) / 1000;
  const flags = u8(b, gds + 16);
  if (type === 0) {
    const lat2 = s24(b, gds + 17) / 1000;
    const lon2 = s24(b, gds + 20) / 1000;
    const scanMode = u8(b, gds + 27);
    // Octet 17 bit 1 (0x80): direction increments given; otherwise they follow from the first and
    // last points. Some encoders (zyGrib's GFS extracts) store Dj with a sign bit (0x81F4 for
    // -0.5 degree, which ecCodes reads as 33.268): an increment that does not span the grid from
    // the first to the last point is replaced by the one the end points imply.
    const di = increment(u16(b, gds + 23), (flags & 0x80) !== 0, spanIncrement(lon1, lon2, ni, true, scanMode));
    const dj = increment(u16(b, gds + 25), (flags & 0x80) !== 0, spanIncrement(lat1, lat2, nj, false, scanMode));
    return { kind: "latlon", ni, nj, lat1, lon1, lat2, lon2, di: round6(di), dj: round6(dj), scanMode };
  }
  if (type === 3 || type === 5) {
    const params: Record<string, number> = {
      // NCEP GRIB1 assumes a spherical earth of radius 6367.47 km (flag bit 0x40 clear).
      earthShape: flags & 0x40 ? 2 : 0,
      earthRadius: flags & 0x40 ? NaN : 6367470,
      la1: lat1,
      lo1: lon1,
      resolutionFlags: flags,
      lov: s24(b, gds + 17) / 1000,
      dx: u24(b, gds + 20),
      dy: u24(b, gds + 23),
      projectionCentre: u8(b, gds + 26),
      scanMode: u8(b, gds + 27),
    };
    if (type === 3) {
      params["latin1"] = s24(b, gds + 28) / 1000;
      params["latin2"] = s24(b, gds + 31) / 1000;
      params["lad"] = params["latin1"]!;
    } else {
      params["lad"] = 60;
    }
    return { kind: type === 3 ? "lambert" : "polar-stereographic", template: type, ni, nj, params };
  }
  if (gds + 6 > b.length) throw formatError(file, gds, "a grid description section", "end of file");
  return { kind: "other", template: type, ni, nj, params: {} };
}

function increment(raw: number, given: boolean, fromSpan: number): number {
  if (!given || raw === 0xffff) return fromSpan;
  const stored = raw / 1000;
  // Millidegree increments are rounded: 0.25 deg spacing may be stored as 0.25, 1/12 as 0.083.
  return fromSpan > 0 && Math.abs(stored - fromSpan) > 0.0015 ? fromSpan : stored;
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** Appends the GRIB1 message at `start` (total length `length`, from octets 5-7) to `out`. */
export function scanGrib1Message(b: Uint8Array, file: string, start: number, length: number, out: GribField[]): void {
  const end = start + length;
  const pds = start + 8;
  const pdsLength = u24(b, pds);
  if (pdsLength < 28 || pds + pdsLength > end - 4) throw formatError(file, pds, `a product definition section of 28 to ${end - 4 - pds} octets`, String(pdsLength));
  const tableVersion = u8(b, pds + 3);
  const centre = u8(b, pds + 4);
  const flag = u8(b, pds + 7);
  const parameter = u8(b, pds + 8);
  const levelType = u8(b, pds + 9);
  const levelHi = u8(b, pds + 10);
  const levelLo = u8(b, pds + 11);
  const century = u8(b, pds + 24);
  const year = (century - 1) * 100 + u8(b, pds + 12);
  const referenceTime = new Date(Date.UTC(year, u8(b, pds + 13) - 1, u8(b, pds + 14), u8(b, pds + 15), u8(b, pds + 16)));
  const time = timeRange(u8(b, pds + 20), u8(b, pds + 18), u8(b, pds + 19), u8(b, pds + 17), parameter);
  const decimalScale = s16(b, pds + 26);

  let pos = pds + pdsLength;
  let gds = -1;
  let bms = -1;
  if (flag & 0x80) {
    gds = pos;
    const len = u24(b, pos);
    if (len < 28 || pos + len > end - 4) throw formatError(file, pos, `a grid description section of 28 to ${end - 4 - pos} octets`, String(len));
    pos += len;
  }
  if (flag & 0x40) {
    bms = pos;
    const len = u24(b, pos);
    if (len < 6 || pos + len > end - 4) throw formatError(file, pos, `a bitmap section of 6 to ${end - 4 - pos} octets`, String(len));
    pos += len;
  }
  const bds = pos;
  const bdsLength = u24(b, bds);
  if (bdsLength < 11 || bds + bdsLength > end - 4) throw formatError(file, bds, `a binary data section of 11 to ${end - 4 - bds} octets`, String(bdsLength));
  if (ascii(b, end - 4, 4) !== "7777") throw formatError(file, end - 4, "end section 7777", JSON.stringify(ascii(b, end - 4, 4)));

  const bdsFlag = u8(b, bds + 3);
  const binaryScale = s16(b, bds + 4);
  const bits = u8(b, bds + 10);
  const grid: GridDescription = gds >= 0 ? readGds(b, gds, file) : { kind: "other", template: -1, ni: 0, nj: 0, params: { catalogueGrid: u8(b, pds + 6) } };
  const numberOfPoints = grid.kind === "latlon" || grid.kind === "lambert" || grid.kind === "polar-stereographic" ? grid.ni * grid.nj : 0;
  const level = grib1ToGrib2Level(levelType, levelHi, levelLo);
  const isLayer = level.type2 !== undefined;

  const field: GribField = {
    index: out.length + 1,
    edition: 1,
    messageOffset: start,
    messageLength: length,
    discipline: 255,
    category: tableVersion,
    number: parameter,
    shortName: grib1ShortName(tableVersion, parameter, centre),
    levelType,
    levelValue: isLayer ? levelHi : levelHi * 256 + levelLo,
    level: grib2LevelName(level.type, level.value, level.type2, level.value2),
    referenceTime,
    startHour: time.startHour,
    endHour: time.endHour,
    statistic: time.statistic,
    productTemplate: -1,
    packingTemplate: GRIB1_SIMPLE_PACKING,
    grid,
    numberOfPoints,
    halfPrecision: bits === 0 ? 0 : 0.5 * 2 ** binaryScale * 10 ** -decimalScale,
    centre,
    sections: { grid: gds, product: pds, representation: -1, bitmap: bms, data: bds },
  };
  if (isLayer) {
    field.secondLevelType = levelType;
    field.secondLevelValue = levelLo;
  }
  const unsupported = bdsFlag & 0x80 ? "GRIB1 spherical harmonic coefficients"
    : bdsFlag & 0x40 ? "GRIB1 second-order (complex) packing"
    : bdsFlag & 0x10 ? "GRIB1 binary data section with additional flags (matrix values)"
    : gds < 0 ? `GRIB1 catalogued grid ${u8(b, pds + 6)} without a grid description section`
    : grid.kind === "other" ? `GRIB1 grid type ${grid.template}`
    : bms >= 0 && u16(b, bms + 4) !== 0 ? `GRIB1 predefined bitmap ${u16(b, bms + 4)}`
    : undefined;
  if (unsupported) field.unsupported = unsupported;
  out.push(field);
}
