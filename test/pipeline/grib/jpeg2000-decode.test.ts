/**
 * GRIB2 template 5.40 (JPEG 2000, decoded by OpenJPEG's WebAssembly build): the Canadian GDPS
 * message (the whole real file, committed) against wgrib2 (every 97th value and statistics over
 * all points, committed; the full wgrib2 array when the shared data and the `xz` command are
 * there) and against ecCodes 2.28 (reference line); damaged code streams give typed errors.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { DataFormatError } from "../../../datasets/common/errors.ts";
import { decodeField } from "../../../pipeline/grib/decode.ts";
import { scanGrib } from "../../../pipeline/grib/scan.ts";
import { needsSharedData } from "../../helpers/shared-data.ts";
import { thrown } from "../../helpers/thrown.ts";
import { compareMetadata, compareWithEccodes, readEccodesLines } from "./eccodes-reference.ts";
import { fixture, fixtureBytes } from "./fixtures.ts";
import { fieldStats } from "./field-stats.ts";
import { goldenMismatches, goldenStats, goldenValues } from "./golden.ts";

const CMC = "cmc-glb-tmp-1mb-2021051800-p000-jpeg2000.grib2";
const CMC_GOLDEN = "cmc-glb-tmp-1mb-2021051800-p000.wgrib2-every97.f32";

function decodeCmc(): Float32Array {
  const bytes = fixtureBytes(CMC);
  const [field] = scanGrib(bytes, CMC);
  expect(field).toMatchObject({ packingTemplate: 40, numberOfPoints: 1126500 });
  expect(field!.unsupported).toBeUndefined();
  return decodeField(bytes, field!, CMC);
}

const wgrib2 = needsSharedData(["grib/reference/cmc-glb-wgrib2-le.bin.xz"], { commands: ["xz"] });
const SHARED_WGRIB2 = wgrib2.path("grib", "reference", "cmc-glb-wgrib2-le.bin.xz");

describe("GRIB2 5.40 JPEG 2000: CMC GDPS TMP 1 mb (1500 x 751)", () => {
  it("every 97th value is wgrib2's exactly; count, min, max, mean over all points agree", () => {
    const values = decodeCmc();
    const golden = goldenValues(CMC_GOLDEN);
    const stats = goldenStats("cmc-glb-tmp-1mb-2021051800-p000.wgrib2-stats.json");
    expect(golden.length).toBe(Math.ceil(1126500 / stats.stride));
    expect(goldenMismatches(values, golden, stats.stride).slice(0, 5)).toEqual([]);
    const { count, min, max, sum } = fieldStats(values);
    expect([count, min, max]).toEqual([stats.count, stats.min, stats.max]);
    expect(Math.abs(sum / count - stats.mean)).toBeLessThan(1e-9);
  });

  it("matches the ecCodes 2.28 line (keys, statistics, 32 points)", () => {
    const bytes = fixtureBytes(CMC);
    const [field] = scanGrib(bytes, CMC);
    const [ref] = readEccodesLines(fixture(`${CMC}.eccodes.jsonl`));
    expect(compareMetadata(field!, ref!)).toEqual([]);
    expect(compareWithEccodes(field!, decodeField(bytes, field!, CMC), ref!)).toEqual([]);
  });

  wgrib2.it("every one of the 1,126,500 values is wgrib2's (full array from the shared data)", () => {
    const raw = execFileSync("xz", ["-dc", SHARED_WGRIB2], { maxBuffer: 64 * 2 ** 20 });
    const golden = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length));
    const values = decodeCmc();
    expect(golden.length).toBe(values.length);
    let differing = 0;
    for (let i = 0; i < golden.length; i++) if (values[i] !== golden[i]) differing++;
    expect(differing).toBe(0);
  });

  it("a damaged code stream is a DataFormatError at section 7, and the decoder works again afterwards", () => {
    const bytes = fixtureBytes(CMC).slice();
    const [field] = scanGrib(bytes, CMC);
    const stream = field!.sections.data + 5;
    // Overwrite the JPEG 2000 SIZ marker segment (it follows the SOC marker FF4F).
    expect([bytes[stream], bytes[stream + 1], bytes[stream + 2], bytes[stream + 3]]).toEqual([0xff, 0x4f, 0xff, 0x51]);
    bytes.fill(0, stream + 2, stream + 40);
    const err = thrown(() => decodeField(bytes, field!, CMC));
    expect(err).toBeInstanceOf(DataFormatError);
    expect((err as DataFormatError).where).toEqual({ file: CMC, offset: stream });
    expect((err as Error).message).toContain("no image decoded");
    expect(decodeCmc()[97]).toBe(goldenValues(CMC_GOLDEN)[1]);
  });

  it("20 seeded random octet changes in the code stream's headers: values or DataFormatError, never another error; decoding works afterwards", () => {
    const original = fixtureBytes(CMC);
    const [field] = scanGrib(original, CMC);
    const stream = field!.sections.data + 5;
    let seed = 0x5eed;
    const rnd = (): number => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const untyped: string[] = [];
    for (let trial = 0; trial < 20; trial++) {
      const bytes = original.slice();
      for (let m = 0; m < 3; m++) bytes[stream + 4 + Math.floor(rnd() * 200)] = Math.floor(rnd() * 256);
      try {
        decodeField(bytes, field!, CMC);
      } catch (e) {
        if (!(e instanceof DataFormatError)) untyped.push(`trial ${trial}: ${String(e)}`);
      }
    }
    expect(untyped).toEqual([]);
    expect(decodeCmc()[97 * 100]).toBe(goldenValues(CMC_GOLDEN)[100]);
  }, 120_000);
});
