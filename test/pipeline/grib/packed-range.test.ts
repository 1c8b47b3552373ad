/**
 * Range decoding of packed GRIB2 fields (pipeline/grib/packed-range.ts) against whole-field
 * decoding (decodeField, itself checked against wgrib2 and ecCodes): every value of every range
 * equal bit for bit, NaN where decodeField gives NaN, on real fixtures of each packing it indexes:
 * 5.3 order 2 (GDAS 0.25°), 5.3 order 1 (GFS 2.5°), 5.3 with missing-value management (GFS 0.25°
 * PV-level temperature, 409,080 missing points), 5.0 (GEFS).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { padded } from "../../../pipeline/grib/bit-unpack.ts";
import { u32 } from "../../../pipeline/grib/bytes.ts";
import { decodeField } from "../../../pipeline/grib/decode.ts";
import { decodePackedRange, indexPacked, isRangeDecodable, type PackedBytes } from "../../../pipeline/grib/packed-range.ts";
import { scanGrib } from "../../../pipeline/grib/scan.ts";
import type { GribField } from "../../../pipeline/grib/types.ts";
import { needsSharedData } from "../../helpers/shared-data.ts";
import { fixtureBytes } from "./fixtures.ts";

/** Section 7's data octets of `field`, read as a file would be (a copy of each range asked for). */
function memoryBytes(bytes: Uint8Array, field: GribField): PackedBytes & { octets: number } {
  const start = field.sections.data + 5;
  const length = u32(bytes, field.sections.data) - 5;
  const src = {
    octets: 0,
    read(offset: number, n: number): Uint8Array {
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset + n).toBeLessThanOrEqual(length);
      src.octets += n;
      return padded(bytes, start + offset, n);
    },
  };
  return src;
}

/** A seeded PRNG (mulberry32) for the ranges tried. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sameValues(got: Float32Array, want: Float32Array, where: string): void {
  expect(got.length, where).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    if (!Object.is(got[i], want[i])) throw new Error(`${where}: value ${i} is ${got[i]}, decodeField gives ${want[i]}`);
  }
}

function checkField(bytes: Uint8Array, field: GribField, name: string, rows: number): { octetsRead: number; sectionOctets: number } {
  const whole = decodeField(bytes, field, name);
  const n = whole.length;
  // Checkpoints every `rows` grid rows, as the forecast step sets them at its band edges.
  const row = field.grid.ni;
  const breakpoints: number[] = [];
  for (let p = 0; p <= n; p += rows * row) breakpoints.push(p);
  const index = indexPacked(bytes, field, name, breakpoints);
  expect(index, `${name}: indexed`).toBeDefined();
  const src = memoryBytes(bytes, field);
  const bands = breakpoints.map((p, i) => [p, Math.min(n, breakpoints[i + 1] ?? n)] as const).filter(([a, b]) => a < b);
  // Every band between checkpoints in order, as the assembly reads them: each starts where the
  // last left its differencing state.
  for (const [a, b] of bands) {
    const out = new Float32Array(b - a).fill(12345);
    decodePackedRange(index!, src, a, b, out);
    sameValues(out, whole.subarray(a, b), `${name} points ${a}-${b}`);
  }
  const octetsRead = src.octets;
  // Again in a shuffled order, from the states the first pass recorded.
  const rand = random(7);
  bands.sort(() => rand() - 0.5);
  for (const [a, b] of bands) {
    const out = new Float32Array(b - a).fill(12345);
    decodePackedRange(index!, src, a, b, out);
    sameValues(out, whole.subarray(a, b), `${name} points ${a}-${b} (shuffled)`);
  }
  // Last band first on a fresh index (a field scanned south to north): one pass from the first
  // point records every state, then each band is one band's work.
  const reversed = indexPacked(bytes, field, name, breakpoints)!;
  const reversedSrc = memoryBytes(bytes, field);
  for (const [a, b] of [...bands].sort((x, y) => y[0] - x[0])) {
    const out = new Float32Array(b - a).fill(12345);
    decodePackedRange(reversed, reversedSrc, a, b, out);
    sameValues(out, whole.subarray(a, b), `${name} points ${a}-${b} (reversed)`);
  }
  expect(reversedSrc.octets, `${name}: octets read in reverse order`).toBeLessThan(octetsRead * 2.2 + 64 * bands.length);
  // Ranges that start and end anywhere, checkpoints or not.
  for (let k = 0; k < 20; k++) {
    const a = Math.floor(rand() * n);
    const b = Math.min(n, a + 1 + Math.floor(rand() * 3 * row));
    const out = new Float32Array(b - a);
    decodePackedRange(index!, src, a, b, out);
    sameValues(out, whole.subarray(a, b), `${name} points ${a}-${b}`);
  }
  return { octetsRead, sectionOctets: u32(bytes, field.sections.data) - 5 };
}

const PV_TMP_MISSING = "gfs.t12z.pgrb2.0p25.f023-PV-TMP-missing.grib2";
const shared = needsSharedData([path.join("grib", "gfs", PV_TMP_MISSING)]);

describe("range decoding of packed GRIB2 fields", () => {
  it("GDAS 0.25° (1440 x 721, 5.3 order 2): every 4-row band, read once, equals decodeField", () => {
    const bytes = fixtureBytes("gdas-t12z-0p25-f000-msg13.grib2");
    const [field] = scanGrib(bytes, "gdas");
    expect(field!.packingTemplate).toBe(3);
    const { octetsRead, sectionOctets } = checkField(bytes, field!, "gdas", 4);
    // The bands read the section about once: each group's descriptors and bits, plus the
    // groups straddling two bands a second time.
    expect(octetsRead).toBeLessThan(sectionOctets * 1.3);
  });

  it("GFS 2.5° (5.3 order 1) equals decodeField", () => {
    const gfs = fixtureBytes("gfs-2p5deg-2011100800-f072-4msg.grib2");
    const fields = scanGrib(gfs, "gfs2p5").filter(isRangeDecodable);
    expect(fields.length).toBe(4);
    for (const f of fields) checkField(gfs, f, `gfs2p5 message ${f.index}`, 3);
  });

  shared.it("GFS 0.25° with missing values (5.3, management 1, shared data) equals decodeField", () => {
    const file = shared.path("grib", "gfs", PV_TMP_MISSING);
    const pv = new Uint8Array(readFileSync(file));
    const [field] = scanGrib(pv, file);
    const whole = decodeField(pv, field!, file);
    expect(whole.filter((v) => Number.isNaN(v)).length).toBe(409_080);
    checkField(pv, field!, "PV-TMP", 4);
  });

  it("GEFS 0.5° (5.0 simple packing) equals decodeField", () => {
    const bytes = fixtureBytes("geavg-t06z-0p50-f006-3msg.grib2");
    const fields = scanGrib(bytes, "geavg").filter(isRangeDecodable);
    expect(fields.map((f) => f.packingTemplate)).toEqual([0, 0]);
    for (const f of fields) checkField(bytes, f, `geavg message ${f.index}`, 2);
  });

  it("does not index what it cannot decode by range: a bitmap, alternate row directions, JPEG 2000 (5.40), GRIB1", () => {
    const withBitmap = scanGrib(fixtureBytes("geavg-t06z-0p50-f006-3msg.grib2"), "geavg")[1]!;
    expect(withBitmap.sections.bitmap).toBeGreaterThan(0);
    expect(isRangeDecodable(withBitmap)).toBe(false);
    const ndfd = scanGrib(fixtureBytes("ndfd-ds.maxt-msg1.grib2"), "ndfd")[0]!;
    expect(isRangeDecodable(ndfd)).toBe(false);
    const cmc = fixtureBytes("cmc-glb-tmp-1mb-2021051800-p000-jpeg2000.grib2");
    const [field] = scanGrib(cmc, "cmc");
    expect(isRangeDecodable(field!)).toBe(false);
    expect(indexPacked(cmc, field!, "cmc", [0])).toBeUndefined();
    const grib1 = fixtureBytes("gfs-0p5-zygrib-2013021406-2msg.grib1");
    expect(isRangeDecodable(scanGrib(grib1, "zygrib")[0]!)).toBe(false);
  });
});
