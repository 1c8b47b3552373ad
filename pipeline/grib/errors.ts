/**
 * Errors of the GRIB decoders. Corrupt or truncated bytes are DataFormatError (file, byte offset,
 * expected vs got). A well-formed message using a template we do not decode is
 * UnsupportedGribError: it names the template, so that nobody ever gets wrong numbers silently.
 */
import { DataFormatError } from "../../datasets/common/errors.ts";

export class UnsupportedGribError extends Error {
  override readonly name = "UnsupportedGribError";
  readonly file: string;
  readonly offset: number;
  /** What is not supported, e.g. "GRIB2 data representation template 5.40 (JPEG 2000)". */
  readonly feature: string;

  constructor(file: string, offset: number, feature: string) {
    super(`${file}, offset ${offset}: ${feature} is not supported`);
    this.file = file;
    this.offset = offset;
    this.feature = feature;
  }
}

/** Shorthand for the decoders: a DataFormatError at a byte offset of a GRIB file. */
export function formatError(file: string, offset: number, expected: string, got: string): DataFormatError {
  return new DataFormatError({ file, offset }, expected, got);
}

/** Names of data representation templates (code table 5.0) for error messages and listings. */
export const DATA_TEMPLATE_NAMES: Readonly<Record<number, string>> = {
  0: "simple packing",
  1: "matrix values",
  2: "complex packing",
  3: "complex packing and spatial differencing",
  4: "IEEE floating point",
  40: "JPEG 2000",
  41: "PNG",
  42: "CCSDS",
  50: "spectral simple packing",
  51: "spectral complex packing",
  61: "simple packing with logarithm pre-processing",
  200: "run length packing",
};

export function dataTemplateName(template: number): string {
  return DATA_TEMPLATE_NAMES[template] ?? "unknown";
}
