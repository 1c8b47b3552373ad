/**
 * Every field of every real GRIB file of the shared corpus (`../shared/data/grib`, present only on
 * our machines: skipped elsewhere; the committed fixtures cover a fresh clone). A file that is also
 * committed (datasets/embedded/grib) is read from there, so its test runs everywhere.
 * - Files with an ecCodes reference: every field's values and metadata, except the listed anomaly.
 * - Files without one: every field decodes, with a plausible count of values.
 * (Every packing of the corpus decodes now; errors.test.ts covers the typed error of the others.)
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EMBEDDED_DIR } from "../../../datasets/common/paths.ts";
import { gridCoordinates } from "../../../pipeline/grib/coordinates.ts";
import { decodeField } from "../../../pipeline/grib/decode.ts";
import { scanGrib } from "../../../pipeline/grib/scan.ts";
import { needsSharedData } from "../../helpers/shared-data.ts";
import { compareMetadata, compareWithEccodes, readEccodesLines } from "./eccodes-reference.ts";
import { fixture } from "./fixtures.ts";

const shared = needsSharedData(["grib"]);
const GRIB_DIR = shared.path("grib");
const present = shared.present;
const FOLDERS = ["gfs", "gfs-multistep", "other"];

/** Same anomaly as in decode-fixtures.test.ts: an empty section 7 that ecCodes reads past. */
const ECCODES_ANOMALIES = new Set(["gfs.2011100800.f072.2p5deg.grib2#231"]);


function locate(name: string): string {
  for (const folder of FOLDERS) {
    const p = path.join(GRIB_DIR, folder, name);
    if (existsSync(p)) return p;
  }
  throw new Error(`${name} not found in the shared corpus`);
}

function allFiles(): string[] {
  if (!present) return [];
  return FOLDERS.flatMap((folder) => readdirSync(path.join(GRIB_DIR, folder)).filter((f) => !f.endsWith(".idx")));
}

/**
 * ecCodes lines for fields the shared reference does not cover (ecCodes 2.28, same keys and
 * sampling; see test/fixtures/grib/README.md): appended to the shared lines.
 */
const EXTRA_REFERENCES: Readonly<Record<string, string>> = {
  "ecmwf-ifs-oper-surface.grib2": "ecmwf-ifs-oper-surface.eccodes-msg4-5.jsonl",
};

const referenced = present ? readdirSync(path.join(GRIB_DIR, "reference", "eccodes")).filter((f) => f.endsWith(".jsonl")).map((f) => f.slice(0, -".jsonl".length)) : [];

shared.describe("shared GRIB corpus against ecCodes", () => {
  for (const name of referenced) {
    it(`${name}: every field`, () => {
      const bytes = new Uint8Array(readFileSync(locate(name)));
      const refs = readEccodesLines(path.join(GRIB_DIR, "reference", "eccodes", `${name}.jsonl`));
      const extra = EXTRA_REFERENCES[name];
      if (extra) refs.push(...readEccodesLines(fixture(extra)));
      const fields = scanGrib(bytes, name);
      expect(fields.length).toBe(refs.length);
      const failures: string[] = [];
      fields.forEach((field, k) => {
        const problems = compareMetadata(field, refs[k]!);
        if (field.unsupported) problems.push(`not decodable: ${field.unsupported}`);
        else if (!ECCODES_ANOMALIES.has(`${name}#${k + 1}`)) problems.push(...compareWithEccodes(field, decodeField(bytes, field, name), refs[k]!));
        if (problems.length) failures.push(`field ${k + 1} ${field.shortName}: ${problems.slice(0, 3).join("; ")}`);
      });
      expect(failures).toEqual([]);
    });
  }
});

shared.describe("shared GRIB corpus: files without a reference decode completely", () => {
  for (const name of allFiles().filter((f) => !referenced.includes(f))) {
    it(name, () => {
      const bytes = new Uint8Array(readFileSync(locate(name)));
      const fields = scanGrib(bytes, name);
      expect(fields.length).toBeGreaterThan(0);
      for (const field of fields) {
        expect(field.unsupported, `${name} field ${field.index}`).toBeUndefined();
        const values = decodeField(bytes, field, name);
        expect(values.length).toBe(field.numberOfPoints);
        expect(values.some((v) => Number.isFinite(v)), `${name} field ${field.index} has values`).toBe(true);
        const { lats } = gridCoordinates(field, name);
        expect(lats.every((lat) => lat >= -90 && lat <= 90)).toBe(true);
      }
    });
  }
});

describe("GRIB1 time range indicator 10 (the committed embedded copy, runs everywhere)", () => {
  it("zyGrib wind/MSLP f000-f192: 3 parameters x 65 three-hourly steps, P1 in two octets", () => {
    const name = "gfs-0p5-zygrib-2013031106-wind-mslp-f000-f192.grib1";
    const bytes = new Uint8Array(readFileSync(path.join(EMBEDDED_DIR, "grib", name)));
    const fields = scanGrib(bytes, name);
    expect(fields.length).toBe(195);
    const steps = Array.from({ length: 65 }, (_, k) => 3 * k);
    for (const [n, shortName] of [[0, "PRMSL"], [1, "UGRD"], [2, "VGRD"]] as const) {
      const group = fields.slice(n * 65, (n + 1) * 65);
      expect(group.every((f) => f.shortName === shortName && f.statistic === "instant" && f.startHour === f.endHour)).toBe(true);
      expect(group.map((f) => f.startHour)).toEqual(steps);
      // PDS octet 21: time range indicator 10 in every message.
      expect(group.every((f) => bytes[f.sections.product + 20] === 10)).toBe(true);
    }
  });
});

shared.describe("shared GRIB corpus: projected grids", () => {
  it("HRRR Lambert conformal: the published corners of the 3 km CONUS grid", () => {
    const name = "hrrr.t06z.wrfsfcf01-TMP.grib2";
    const [field] = scanGrib(new Uint8Array(readFileSync(locate(name))), name);
    const { lats, lons } = gridCoordinates(field!, name);
    const ni = 1799;
    const n = 1799 * 1059;
    // NOAA's HRRR grid: SW 21.138N 122.720W, NW 47.842N 134.096W, NE 47.842N 60.917W. The NW/NE
    // longitudes are the extremes of the coordinates another decoder (Julia GRIB.jl, on a HRRR
    // file) printed: lons in [-134.09548, -60.91719], lats from 21.138123 (Stack Overflow 70445896).
    const corners = [[0, 21.138, -122.72], [n - ni, 47.842, -134.096], [n - 1, 47.842, -60.917]] as const;
    for (const [k, lat, lon] of corners) {
      expect(Math.abs(lats[k]! - lat), `lat of point ${k}`).toBeLessThan(0.005);
      expect(Math.abs(lons[k]! - lon), `lon of point ${k}`).toBeLessThan(0.005);
    }
  });

  it("polar stereographic (south pole, true at 60S): first point at La1/Lo1, rows symmetric about LoV", () => {
    const name = "safrica.grib2";
    const [field] = scanGrib(new Uint8Array(readFileSync(locate(name))), name);
    expect(field!.grid.kind).toBe("polar-stereographic");
    const { lats, lons } = gridCoordinates(field!, name);
    const p = field!.grid.kind === "polar-stereographic" ? field!.grid.params : {};
    expect(Math.abs(lats[0]! - p["la1"]!)).toBeLessThan(1e-6);
    expect(Math.abs(lons[0]! - (p["lo1"]! - 360))).toBeLessThan(1e-6);
    // LoV = 28E and the grid is centred on it: the row ends mirror each other.
    const ni = field!.grid.ni;
    expect(Math.abs(lons[0]! + lons[ni - 1]! - 2 * p["lov"]!)).toBeLessThan(1e-3);
    expect(Math.abs(lats[0]! - lats[ni - 1]!)).toBeLessThan(1e-3);
  });
});
