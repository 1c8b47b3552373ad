/**
 * Bad input: templates we do not decode (a real message with its template number changed), truncated files and corrupt
 * lengths (real messages with bytes cut or changed here), each a typed error with file and offset.
 */
import { describe, expect, it } from "vitest";
import { DataFormatError } from "../../../datasets/common/errors.ts";
import { decodeField } from "../../../pipeline/grib/decode.ts";
import { UnsupportedGribError } from "../../../pipeline/grib/errors.ts";
import { scanGrib } from "../../../pipeline/grib/scan.ts";
import { fixtureBytes } from "./fixtures.ts";
import { thrown } from "../../helpers/thrown.ts";

const FOUR = "gfs-2p5deg-2011100800-f072-4msg.grib2";

function u32(b: Uint8Array, o: number): number {
  return new DataView(b.buffer, b.byteOffset).getUint32(o);
}

/** Offsets of the messages of a GRIB2 file, from the 8-octet lengths of section 0. */
function messageStarts(b: Uint8Array): number[] {
  const starts: number[] = [];
  for (let o = 0; o < b.length; o += u32(b, o + 12)) starts.push(o);
  return starts;
}

describe("unsupported templates", () => {
  it("lists a field whose template we do not decode (a real 5.3 message turned into 5.4 IEEE here) and refuses it, naming the template, file and offset", () => {
    const bytes = fixtureBytes(FOUR).slice();
    const first = scanGrib(bytes, "ieee.grib2")[0]!;
    const s5 = first.sections.representation;
    bytes[s5 + 9] = 0;
    bytes[s5 + 10] = 4;
    const [field] = scanGrib(bytes, "ieee.grib2");
    expect(field!.packingTemplate).toBe(4);
    expect(field!.unsupported).toBe("GRIB2 data representation template 5.4 (IEEE floating point)");
    const err = thrown(() => decodeField(bytes, field!, "ieee.grib2"));
    expect(err).toBeInstanceOf(UnsupportedGribError);
    expect((err as Error).message).toBe("ieee.grib2, offset 0: GRIB2 data representation template 5.4 (IEEE floating point) is not supported");
  });
});

describe("truncated and corrupt files", () => {
  it("a file cut inside its third message: DataFormatError at that message's offset", () => {
    const whole = fixtureBytes(FOUR);
    const starts = messageStarts(whole);
    expect(starts.length).toBe(4);
    const cut = whole.subarray(0, starts[2]! + 100);
    const err = thrown(() => scanGrib(cut, "cut.grib2")) as DataFormatError;
    expect(err).toBeInstanceOf(DataFormatError);
    expect(err.where).toEqual({ file: "cut.grib2", offset: starts[2] });
    expect(err.message).toContain(`expected a GRIB2 message of ${u32(whole, starts[2]! + 12)} bytes`);
    expect(err.message).toContain("got 100 bytes before the end of the file");
  });

  it("a file cut inside section 0", () => {
    const err = thrown(() => scanGrib(fixtureBytes(FOUR).subarray(0, 10), "tiny.grib2")) as DataFormatError;
    expect(err).toBeInstanceOf(DataFormatError);
    expect(err.where.offset).toBe(0);
  });

  it("an empty file and a file without GRIB", () => {
    expect(thrown(() => scanGrib(new Uint8Array(0), "empty"))).toBeInstanceOf(DataFormatError);
    expect((thrown(() => scanGrib(new TextEncoder().encode("<html>not found</html>"), "page")) as Error).message).toContain("none in 22 bytes");
  });

  it("a section length running past the message end names the section and its offset", () => {
    const bytes = fixtureBytes(FOUR).slice();
    const sec1 = 16;
    const sec3 = sec1 + u32(bytes, sec1);
    expect(bytes[sec3 + 4]).toBe(3);
    new DataView(bytes.buffer).setUint32(sec3, 0x00ffffff);
    const err = thrown(() => scanGrib(bytes, "corrupt.grib2")) as DataFormatError;
    expect(err).toBeInstanceOf(DataFormatError);
    expect(err.where).toEqual({ file: "corrupt.grib2", offset: sec3 });
    expect(err.message).toContain(`section 3 length between 5 and`);
    expect(err.got).toBe(String(0x00ffffff));
  });

  it("a missing end section 7777", () => {
    const bytes = fixtureBytes(FOUR).slice();
    const end = u32(bytes, 12);
    bytes.set([0x30, 0x30, 0x30, 0x30], end - 4);
    const err = thrown(() => scanGrib(bytes, "no-end.grib2")) as DataFormatError;
    expect(err).toBeInstanceOf(DataFormatError);
    expect(err.where.file).toBe("no-end.grib2");
  });

  it("an unknown edition", () => {
    const bytes = fixtureBytes(FOUR).slice();
    bytes[7] = 3;
    const err = thrown(() => scanGrib(bytes, "ed3.grib")) as DataFormatError;
    expect(err.message).toBe("ed3.grib, offset 7: expected GRIB edition 1 or 2, got 3");
  });

  it("complex packing whose group lengths do not add up to the point count", () => {
    const bytes = fixtureBytes(FOUR).slice();
    const apcp = scanGrib(bytes, "x")[3]!;
    // Section 5 octets 43-46: true length of the last group.
    const at = apcp.sections.representation + 42;
    new DataView(bytes.buffer).setUint32(at, u32(bytes, at) + 7);
    const err = thrown(() => decodeField(bytes, scanGrib(bytes, "x")[3]!, "groups.grib2")) as DataFormatError;
    expect(err).toBeInstanceOf(DataFormatError);
    expect(err.message).toContain("expected group lengths adding up to 10512 values");
  });

  it("a grid whose Ni x Nj disagrees with its number of points is refused before allocating it", () => {
    const bytes = fixtureBytes(FOUR).slice();
    const [field] = scanGrib(bytes, "x");
    const s3 = field!.sections.grid;
    // Template 3.0 octets 31-34: Ni (144) set to 4,000,000,000.
    new DataView(bytes.buffer).setUint32(s3 + 30, 4_000_000_000);
    const err = thrown(() => decodeField(bytes, scanGrib(bytes, "x")[0]!, "ni.grib2")) as DataFormatError;
    expect(err).toBeInstanceOf(DataFormatError);
    expect(err.message).toBe(`ni.grib2, offset ${s3}: expected Ni x Nj equal to the 10512 data points, got 4000000000 x 73`);
  });

  it("a GRIB1 message cut short: DataFormatError with the offset", () => {
    const bytes = fixtureBytes("gfs-0p5-zygrib-2013021406-2msg.grib1");
    const err = thrown(() => scanGrib(bytes.subarray(0, bytes.length - 10), "cut.grib1")) as DataFormatError;
    expect(err).toBeInstanceOf(DataFormatError);
    // The second message starts where the first ends (GRIB1 octets 5-7: total length).
    expect(err.where.offset).toBe((bytes[4]! << 16) | (bytes[5]! << 8) | bytes[6]!);
  });
});
