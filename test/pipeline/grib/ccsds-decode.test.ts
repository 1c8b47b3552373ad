/**
 * GRIB2 template 5.42 (CCSDS / libaec adaptive entropy coding):
 * - the real ECMWF message (fixture, cut byte for byte) against ecCodes 2.28: its reference line,
 *   and every 97th value exactly (ecCodes `grib_get_data` output rounded to float32);
 * - options the ECMWF data does not use (restricted ids for 4-bit samples, no preprocessing,
 *   32-bit and 24-bit samples) on streams made by libaec's own encoder (`aec`, libaec 1.0.6)
 *   from real bytes: decoding must give back the encoder's input exactly;
 * - bad streams and parameters: typed errors.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DataFormatError } from "../../../datasets/common/errors.ts";
import { AEC_DATA_MSB, AEC_DATA_PREPROCESS, AEC_RESTRICTED, aecDecode, aecIdLength } from "../../../pipeline/grib/ccsds-decode.ts";
import { decodeField } from "../../../pipeline/grib/decode.ts";
import { UnsupportedGribError } from "../../../pipeline/grib/errors.ts";
import { scanGrib } from "../../../pipeline/grib/scan.ts";
import { compareMetadata, compareWithEccodes, readEccodesLines } from "./eccodes-reference.ts";
import { fixture, fixtureBytes } from "./fixtures.ts";
import { goldenMismatches, goldenValues } from "./golden.ts";
import { thrown } from "../../helpers/thrown.ts";

const ECMWF = "ecmwf-ifs-oper-surface-msg1-ccsds.grib2";

describe("GRIB2 5.42 CCSDS: ECMWF IFS open data against ecCodes", () => {
  it("the snow albedo field (8 bits, block 32, rsi 128, flags 14) matches the ecCodes line", () => {
    const bytes = fixtureBytes(ECMWF);
    const [field] = scanGrib(bytes, ECMWF);
    const [ref] = readEccodesLines(fixture(`${ECMWF}.eccodes.jsonl`));
    expect(field!.unsupported).toBeUndefined();
    expect(compareMetadata(field!, ref!)).toEqual([]);
    expect(compareWithEccodes(field!, decodeField(bytes, field!, ECMWF), ref!)).toEqual([]);
  });

  it("every 97th of the 1,038,240 values is ecCodes' value exactly (as float32)", () => {
    const bytes = fixtureBytes(ECMWF);
    const [field] = scanGrib(bytes, ECMWF);
    const values = decodeField(bytes, field!, ECMWF);
    const golden = goldenValues("ecmwf-ifs-oper-surface-msg1-ccsds.eccodes-every97.f32");
    expect(golden.length).toBe(Math.ceil(1038240 / 97));
    expect(goldenMismatches(values, golden).slice(0, 5)).toEqual([]);
  });

  it("a section 7 cut short is a DataFormatError at the coded stream, not wrong numbers", () => {
    const bytes = fixtureBytes(ECMWF).slice();
    const [field] = scanGrib(bytes, ECMWF);
    const s7 = field!.sections.data;
    // Keep the message structure but make section 7 claim only 1,000 coded octets.
    new DataView(bytes.buffer).setUint32(s7, 1005);
    const err = thrown(() => decodeField(bytes, field!, ECMWF)) as DataFormatError;
    expect(err).toBeInstanceOf(DataFormatError);
    expect(err.where).toEqual({ file: ECMWF, offset: s7 + 5 });
    expect(err.message).toContain("a CCSDS stream coding 1038240 samples");
  });

  it("signed samples (flag 1) are refused with the typed error naming the flag", () => {
    const bytes = fixtureBytes(ECMWF).slice();
    const [field] = scanGrib(bytes, ECMWF);
    bytes[field!.sections.representation + 21] = 14 | 1;
    const err = thrown(() => decodeField(bytes, field!, ECMWF));
    expect(err).toBeInstanceOf(UnsupportedGribError);
    expect((err as Error).message).toContain("signed CCSDS samples (flag 1)");
  });

  it("an odd block size is a DataFormatError naming it", () => {
    const bytes = fixtureBytes(ECMWF).slice();
    const [field] = scanGrib(bytes, ECMWF);
    bytes[field!.sections.representation + 22] = 31;
    const err = thrown(() => decodeField(bytes, field!, ECMWF)) as DataFormatError;
    expect(err).toBeInstanceOf(DataFormatError);
    expect(err.message).toContain("block size 31");
  });
});

/** Samples as the `aec` tool reads them: 1 octet (<= 8 bits), else 4 octets, LSB or MSB first. */
function rawSamples(name: string, width: 1 | 4, msb: boolean): number[] {
  const b = readFileSync(fixture(`aec/${name}`));
  const out: number[] = [];
  for (let i = 0; i < b.length; i += width) out.push(width === 1 ? b[i]! : msb ? b.readUInt32BE(i) : b.readUInt32LE(i));
  return out;
}

describe("CCSDS options on streams encoded by libaec (aec 1.0.6)", () => {
  const cases = [
    // aec -t -n 4 -j 16 -r 64: ECMWF precipitation type codes (0..12), restricted ids (2 bits)
    { stream: "ptype-4bit-restricted.aec", raw: "ptype-4bit.raw", width: 1, msb: false, params: { bitsPerSample: 4, blockSize: 16, rsi: 64, flags: AEC_DATA_PREPROCESS | AEC_RESTRICTED } },
    // aec -N -m -n 32 -j 16 -r 8: octets of a GRIB file as 32-bit samples, no preprocessing
    { stream: "bytes-32bit-nopp-msb.aec", raw: "bytes-32bit.raw", width: 4, msb: true, params: { bitsPerSample: 32, blockSize: 16, rsi: 8, flags: AEC_DATA_MSB } },
    // aec -n 24 -j 8 -r 2: octets of a GRIB file in 3-octet groups as 24-bit samples, preprocessed
    { stream: "bytes-24bit.aec", raw: "bytes-24bit.raw", width: 4, msb: false, params: { bitsPerSample: 24, blockSize: 8, rsi: 2, flags: AEC_DATA_PREPROCESS } },
  ] as const;
  for (const c of cases) {
    it(`${c.stream}: decodes back to the encoder's input`, () => {
      const expected = rawSamples(c.raw, c.width, c.msb);
      const out = new Float64Array(expected.length);
      aecDecode(fixtureBytes(`aec/${c.stream}`), expected.length, c.params, out, { file: c.stream, offset: 0 });
      const wrong = expected.flatMap((v, i) => (out[i] === v ? [] : [`${i}: ${out[i]} vs ${v}`]));
      expect(wrong.slice(0, 5)).toEqual([]);
    });
  }

  it("option id widths follow the sample width (libaec): 1, 2, 3, 4 and 5 bits", () => {
    expect([aecIdLength(2, AEC_RESTRICTED), aecIdLength(4, AEC_RESTRICTED), aecIdLength(4, 0), aecIdLength(16, 0), aecIdLength(17, 0)]).toEqual([1, 2, 3, 4, 5]);
  });

  it("more samples asked than the stream codes: DataFormatError, not zeros", () => {
    const expected = rawSamples("ptype-4bit.raw", 1, false);
    const out = new Float64Array(expected.length + 4096);
    const err = thrown(() =>
      aecDecode(fixtureBytes("aec/ptype-4bit-restricted.aec"), out.length, { bitsPerSample: 4, blockSize: 16, rsi: 64, flags: AEC_DATA_PREPROCESS | AEC_RESTRICTED }, out, { file: "p.aec", offset: 7 }),
    ) as DataFormatError;
    expect(err).toBeInstanceOf(DataFormatError);
    expect(err.where).toEqual({ file: "p.aec", offset: 7 });
  });
});
