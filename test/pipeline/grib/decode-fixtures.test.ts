/**
 * Decoding of real GRIB messages cut byte for byte from the shared corpus (committed under
 * test/fixtures/grib, so these run on a fresh clone), against ecCodes 2.28 reference values and
 * wgrib2 golden arrays.
 */
import { describe, expect, it } from "vitest";
import { decodeField } from "../../../pipeline/grib/decode.ts";
import { scanGrib } from "../../../pipeline/grib/scan.ts";
import { compareMetadata, compareWithEccodes, readEccodesLines } from "./eccodes-reference.ts";
import { fixture, fixtureBytes } from "./fixtures.ts";
import { fieldStats } from "./field-stats.ts";
import { goldenStats, goldenValues } from "./golden.ts";

const WITH_ECCODES = [
  "gfs-2p5deg-2011100800-f072-4msg.grib2",
  "gfs-0p5-zygrib-2013021406-2msg.grib1",
  "geavg-t06z-0p50-f006-3msg.grib2",
  "ndfd-ds.maxt-msg1.grib2",
];

/**
 * Known disagreements with ecCodes, each checked separately below. CICEP of the 2.5 degree GFS
 * file has an empty section 7 (5 octets) with 0 bits per value and 0 groups: by the WMO manual
 * every value is the reference value R = 0 (wgrib2 agrees); ecCodes 2.28 reads the spatial
 * differencing descriptors past the section end ("7777GRIB") and reports 55 ... 578160.
 */
const ECCODES_ANOMALIES = new Set(["gfs-2p5deg-2011100800-f072-4msg.grib2#5"]);

describe("GRIB fixtures against ecCodes", () => {
  for (const name of WITH_ECCODES) {
    it(`${name}: every field matches ecCodes within half the packing precision`, () => {
      const bytes = fixtureBytes(name);
      const refs = readEccodesLines(fixture(`${name}.eccodes.jsonl`));
      const fields = scanGrib(bytes, name);
      expect(fields.length).toBe(refs.length);
      fields.forEach((field, k) => {
        const ref = refs[k]!;
        expect(compareMetadata(field, ref), `${name} field ${k + 1} metadata`).toEqual([]);
        if (ECCODES_ANOMALIES.has(`${name}#${k + 1}`)) return;
        expect(compareWithEccodes(field, decodeField(bytes, field, name), ref), `${name} field ${k + 1} values`).toEqual([]);
      });
    });
  }

  it("decodes both fields of a two-field GRIB2 message (U and V sharing sections 0-3)", () => {
    const bytes = fixtureBytes("gfs-2p5deg-2011100800-f072-4msg.grib2");
    const [u, v] = scanGrib(bytes, "2p5");
    expect(u!.messageOffset).toBe(v!.messageOffset);
    expect([u!.shortName, v!.shortName, u!.level]).toEqual(["UGRD", "VGRD", "10 mb"]);
    expect(u!.sections.data).toBeLessThan(v!.sections.product);
  });

  it("reads intervals and statistics of templates 4.8, 4.12 and GRIB1 time ranges 3 and 4", () => {
    const gfs = scanGrib(fixtureBytes("gfs-2p5deg-2011100800-f072-4msg.grib2"), "2p5");
    expect(gfs[3]).toMatchObject({ shortName: "APCP", startHour: 66, endHour: 72, statistic: "accumulation", productTemplate: 8 });
    const geavg = scanGrib(fixtureBytes("geavg-t06z-0p50-f006-3msg.grib2"), "geavg");
    expect(geavg[2]).toMatchObject({ shortName: "TMAX", level: "2 m above ground", startHour: 0, endHour: 6, statistic: "maximum", productTemplate: 12 });
    const grib1 = scanGrib(fixtureBytes("gfs-0p5-zygrib-2013021406-2msg.grib1"), "zygrib");
    expect(grib1[0]).toMatchObject({ edition: 1, shortName: "TCDC", level: "entire atmosphere (considered as a single layer)", startHour: 0, endHour: 6, statistic: "average" });
    expect(grib1[1]).toMatchObject({ shortName: "APCP", level: "surface", statistic: "accumulation" });
  });

  it("masks bitmap points as NaN (soil temperature over the oceans)", () => {
    const bytes = fixtureBytes("gfs-2p5deg-2011100800-f072-4msg.grib2");
    const soil = scanGrib(bytes, "2p5")[2]!;
    expect(soil.level).toBe("0-0.1 m below ground");
    expect(soil.sections.bitmap).toBeGreaterThan(0);
    const values = decodeField(bytes, soil);
    // Bits set in section 6, counted straight from the bytes.
    const s6 = soil.sections.bitmap;
    let set = 0;
    for (let k = 0; k < values.length; k++) if (bytes[s6 + 6 + (k >> 3)]! & (0x80 >> (k & 7))) set++;
    expect(values.filter((v) => !Number.isNaN(v)).length).toBe(set);
    expect(set).toBeLessThan(values.length);
  });

  it("gives the reference value for a constant field with no groups (ecCodes anomaly)", () => {
    const bytes = fixtureBytes("gfs-2p5deg-2011100800-f072-4msg.grib2");
    const cicep = scanGrib(bytes, "2p5")[4]!;
    const s5 = cicep.sections.representation;
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    // Section 5 octets 12-15 R (IEEE), 20 bits per value, 32-35 number of groups; section 7 length.
    expect([view.getFloat32(s5 + 11), bytes[s5 + 19], view.getUint32(s5 + 31), view.getUint32(cicep.sections.data)]).toEqual([0, 0, 0, 5]);
    const values = decodeField(bytes, cicep);
    expect(values.length).toBe(10512);
    expect(values.every((v) => v === 0)).toBe(true);
    const ecc = readEccodesLines(fixture("gfs-2p5deg-2011100800-f072-4msg.grib2.eccodes.jsonl"))[4]!;
    expect(ecc.stats.max).toBe(578160);
  });

  it("NDFD: 5.2 with missing-value management 1 on a boustrophedon Lambert grid", () => {
    const bytes = fixtureBytes("ndfd-ds.maxt-msg1.grib2");
    const [field] = scanGrib(bytes, "ndfd");
    // Section 5 octet 23: missing value management; section 3 template 3.30 octet 65: scanning mode.
    expect([field!.packingTemplate, bytes[field!.sections.representation + 22]]).toEqual([2, 1]);
    expect(field!.grid.kind).toBe("lambert");
    expect(bytes[field!.sections.grid + 64]).toBe(0x50);
    // The value comparison itself is in the ecCodes loop above (stats, 32 points, 371,039 missing).
  });
});

describe("GRIB2 5.3 order 2 against wgrib2 (GDAS 0.25 degree, 1,038,240 points)", () => {
  const name = "gdas-t12z-0p25-f000-msg13.grib2";
  it("matches every 97th wgrib2 value and wgrib2's statistics over all points", () => {
    const bytes = fixtureBytes(name);
    const [field] = scanGrib(bytes, name);
    expect(field).toMatchObject({ packingTemplate: 3, numberOfPoints: 1038240 });
    const values = decodeField(bytes, field!, name);
    const golden = goldenValues("gdas-t12z-0p25-f000-msg13.wgrib2-every97.f32");
    const stats = goldenStats("gdas-t12z-0p25-f000-msg13.wgrib2-stats.json");
    let worst = 0;
    for (let k = 0; k < golden.length; k++) worst = Math.max(worst, Math.abs(values[k * stats.stride]! - golden[k]!));
    expect(worst).toBeLessThanOrEqual(field!.halfPrecision);
    const { count, min, max, sum } = fieldStats(values);
    expect([count, min, max]).toEqual([stats.count, stats.min, stats.max]);
    expect(Math.abs(sum / count - stats.mean)).toBeLessThanOrEqual(field!.halfPrecision);
  });
});
