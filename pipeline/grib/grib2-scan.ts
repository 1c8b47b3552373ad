/**
 * Walks one GRIB2 message (sections 0 to 8) and lists its fields without decoding values: a field
 * is emitted at every section 7, with the grid, product, representation and bitmap sections in
 * force at that point (sections 3 to 7 may repeat inside one message). Section 2 (local use) is
 * skipped.
 */
import { ascii, ieee32, s16, u16, u32, u8 } from "./bytes.ts";
import { dataTemplateName, formatError } from "./errors.ts";
import { grib2LevelName } from "./level-names.ts";
import { grib2ShortName } from "./grib2-names.ts";
import { readGrib2Grid, type Grib2Grid } from "./grib2-grid.ts";
import { readGrib2Product, type Grib2Product } from "./grib2-product.ts";
import type { GribField } from "./types.ts";

/** Data representation templates decodeField implements. */
export const SUPPORTED_GRIB2_DATA_TEMPLATES: ReadonlySet<number> = new Set([0, 2, 3, 40, 42]);

interface Representation {
  offset: number;
  template: number;
  halfPrecision: number;
}

function readRepresentation(b: Uint8Array, sec: number): Representation {
  const template = u16(b, sec + 9);
  let halfPrecision = NaN;
  if (template === 0 || template === 2 || template === 3 || template === 40 || template === 41 || template === 42) {
    const e = s16(b, sec + 15);
    const d = s16(b, sec + 17);
    halfPrecision = u8(b, sec + 19) === 0 ? 0 : 0.5 * 2 ** e * 10 ** -d;
    if (!Number.isFinite(ieee32(b, sec + 11))) halfPrecision = NaN;
  }
  return { offset: sec, template, halfPrecision };
}

/** Appends the fields of the GRIB2 message at `start` (length `length`) to `out`. */
export function scanGrib2Message(b: Uint8Array, file: string, start: number, length: number, out: GribField[]): void {
  const end = start + length;
  const discipline = u8(b, start + 6);
  let pos = start + 16;
  let referenceTime = new Date(NaN);
  let centre = 65535;
  let grid: Grib2Grid | undefined;
  let gridOffset = -1;
  let product: Grib2Product | undefined;
  let productOffset = -1;
  let repr: Representation | undefined;
  let bitmapOffset = -1;
  let lastDefinedBitmap = -1;
  let bitmapProblem: string | undefined;
  for (;;) {
    if (pos + 4 > end) throw formatError(file, pos, "a GRIB2 section or end section 7777", "end of message");
    if (ascii(b, pos, 4) === "7777") {
      if (pos + 4 !== end) throw formatError(file, pos, `end section at offset ${end - 4} (message length ${length})`, `7777 at offset ${pos}`);
      return;
    }
    if (pos + 5 > end) throw formatError(file, pos, "a 5-octet section header", `${end - pos} octets before the end of the message`);
    const secLength = u32(b, pos);
    const secNumber = u8(b, pos + 4);
    if (secLength < 5 || pos + secLength > end - 4) {
      throw formatError(file, pos, `section ${secNumber} length between 5 and ${end - 4 - pos}`, String(secLength));
    }
    if (secNumber < 1 || secNumber > 7) throw formatError(file, pos + 4, "a section number 1 to 7", String(secNumber));
    switch (secNumber) {
      case 1:
        centre = u16(b, pos + 5);
        referenceTime = new Date(Date.UTC(u16(b, pos + 12), u8(b, pos + 14) - 1, u8(b, pos + 15), u8(b, pos + 16), u8(b, pos + 17), u8(b, pos + 18)));
        break;
      case 3:
        grid = readGrib2Grid(b, pos);
        gridOffset = pos;
        break;
      case 4:
        product = readGrib2Product(b, pos, referenceTime);
        productOffset = pos;
        break;
      case 5:
        repr = readRepresentation(b, pos);
        break;
      case 6: {
        const indicator = u8(b, pos + 5);
        bitmapProblem = undefined;
        if (indicator === 0) {
          bitmapOffset = pos;
          lastDefinedBitmap = pos;
        } else if (indicator === 254) {
          if (lastDefinedBitmap < 0) throw formatError(file, pos + 5, "a bitmap defined earlier in the message (indicator 254)", "none before");
          bitmapOffset = lastDefinedBitmap;
        } else if (indicator === 255) {
          bitmapOffset = -1;
        } else {
          bitmapOffset = -1;
          bitmapProblem = `GRIB2 predefined bitmap ${indicator}`;
        }
        break;
      }
      case 7: {
        if (!grid || !product || !repr) {
          throw formatError(file, pos, "sections 3, 4 and 5 before section 7", `section 7 without section ${!grid ? 3 : !product ? 4 : 5}`);
        }
        out.push(makeField(out.length + 1, discipline, centre, referenceTime, start, length, grid, product, repr, {
          grid: gridOffset, product: productOffset, representation: repr.offset, bitmap: bitmapOffset, data: pos,
        }, bitmapProblem));
        break;
      }
      default:
        break;
    }
    pos += secLength;
  }
}

function makeField(
  index: number, discipline: number, centre: number, referenceTime: Date, start: number, length: number,
  grid: Grib2Grid, product: Grib2Product, repr: Representation, sections: GribField["sections"], bitmapProblem: string | undefined,
): GribField {
  const field: GribField = {
    index,
    edition: 2,
    messageOffset: start,
    messageLength: length,
    discipline,
    category: product.category,
    number: product.number,
    shortName: grib2ShortName(discipline, product.category, product.number, centre),
    levelType: product.levelType,
    levelValue: product.levelValue,
    level: grib2LevelName(product.levelType, product.levelValue, product.secondLevelType, product.secondLevelValue),
    referenceTime,
    startHour: product.startHour,
    endHour: product.endHour,
    statistic: product.statistic,
    productTemplate: product.template,
    packingTemplate: repr.template,
    grid: grid.grid,
    numberOfPoints: grid.numberOfPoints,
    halfPrecision: repr.halfPrecision,
    centre,
    sections,
  };
  if (product.secondLevelType !== undefined) {
    field.secondLevelType = product.secondLevelType;
    field.secondLevelValue = product.secondLevelValue ?? 0;
  }
  if (product.ensemble) field.ensemble = product.ensemble;
  const unsupported = !SUPPORTED_GRIB2_DATA_TEMPLATES.has(repr.template)
    ? `GRIB2 data representation template 5.${repr.template} (${dataTemplateName(repr.template)})`
    : bitmapProblem;
  if (unsupported) field.unsupported = unsupported;
  return field;
}
