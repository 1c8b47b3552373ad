import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { DataFormatError, MissingInputError } from "../../../datasets/common/errors.ts";
import { EMBEDDED_DIR, PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { decodeHgt, parseHgtName, readHgt } from "../../../pipeline/elevation/hgt.ts";

const DEM = path.join(EMBEDDED_DIR, "dem");
const n00e010 = gunzipSync(readFileSync(path.join(DEM, "N00E010.hgt.gz")));

/** The .hgt layout by hand: row-major from the north, 2 bytes per sample, big-endian. */
function hgtAt(bytes: Uint8Array, side: number, row: number, col: number): number {
  const offset = 2 * (row * side + col);
  const v = (bytes[offset]! << 8) | bytes[offset + 1]!;
  return v >= 0x8000 ? v - 0x10000 : v;
}

describe("SRTM .hgt names", () => {
  it("gives the south-west corner", () => {
    expect(parseHgtName("N00E010.hgt")).toEqual({ name: "N00E010", south: 0, west: 10 });
    expect(parseHgtName("/x/S46W066.hgt.gz")).toEqual({ name: "S46W066", south: -46, west: -66 });
    expect(parseHgtName("n00e011.HGT.zip")).toEqual({ name: "N00E011", south: 0, west: 11 });
    expect(parseHgtName("S46W066.SRTMGL1.hgt.zip")).toEqual({ name: "S46W066", south: -46, west: -66 });
    expect(parseHgtName("N00E010.tif")).toBeUndefined();
    expect(parseHgtName("N90E000.hgt")).toBeUndefined();
    expect(parseHgtName("N00E180.hgt")).toBeUndefined();
  });
});

describe("decodeHgt", () => {
  it("reads a 3 arc-second tile as grid-registered big-endian int16", () => {
    const tile = decodeHgt(n00e010, "N00E010.hgt");
    expect(tile.source).toBe("srtm3");
    expect(tile.grid).toEqual({ width: 1201, height: 1201, lon0: 10, lat0: 1, resLonArcsec: 3, resLatArcsec: 3 });
    // Offsets by hand: row 600, column 600 is byte 2 * (600 * 1201 + 600) = 1442400.
    expect(n00e010.readInt16BE(1442400)).toBe(tile.samples[600 * 1201 + 600]);
    for (const [r, c] of [[0, 0], [0, 1200], [1200, 0], [1200, 1200], [17, 993], [777, 45]] as const) {
      expect(tile.samples[r * 1201 + c]).toBe(hgtAt(n00e010, 1201, r, c));
    }
  });

  it("reads the .zip and .gz forms of real tiles", async () => {
    const zip = await readHgt(path.join(DEM, "N00E011.hgt.zip"));
    expect(zip.name).toBe("N00E011");
    expect(zip.displayName).toBe("N00E011.hgt.zip!N00E011.hgt");
    expect(zip.grid.lon0).toBe(11);
    const gz = await readHgt(path.join(DEM, "S46W066.hgt.gz"));
    expect(gz.source).toBe("srtm1");
    expect(gz.grid).toEqual({ width: 3601, height: 3601, lon0: -66, lat0: -45, resLonArcsec: 1, resLatArcsec: 1 });
    const raw = gunzipSync(readFileSync(path.join(DEM, "S46W066.hgt.gz")));
    expect(gz.samples[1234 * 3601 + 2345]).toBe(hgtAt(raw, 3601, 1234, 2345));
  });

  it("refuses a truncated .hgt naming the file and the offset where the data ends", async () => {
    const file = path.join(PROJECT_ROOT, "test/fixtures/elevation/truncated/N00E010.hgt");
    const err = await readHgt(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataFormatError);
    expect((err as DataFormatError).where).toMatchObject({ file: "N00E010.hgt", offset: 4096 });
    expect((err as Error).message).toMatch(/N00E010\.hgt, offset 4096: expected 2884802 bytes \(1201x1201\) or 25934402 bytes \(3601x3601\)/);
  });

  it("says which input is missing", async () => {
    const err = await readHgt("/nonexistent/N00E010.hgt").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingInputError);
    expect((err as Error).message).toBe("source file not found: /nonexistent/N00E010.hgt");
  });

  it("refuses a file whose name is not an SRTM tile name", () => {
    expect(() => decodeHgt(n00e010, "elevation.hgt")).toThrow(/expected an SRTM tile name/);
  });
});
