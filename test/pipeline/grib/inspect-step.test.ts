/**
 * `grib-inspect`: the inventory lines and the --json document of real fixtures, checked against
 * the raw bytes (offsets), ecCodes' keys (date, step) and ecCodes' sample values.
 */
import os from "node:os";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readConfig } from "../../../datasets/common/config.ts";
import { ConfigError } from "../../../datasets/common/errors.ts";
import { createLogger } from "../../../datasets/common/log.ts";
import { gribInspectStep, parseInspectArgs } from "../../../pipeline/grib/inspect-step.ts";
import { STEPS } from "../../../pipeline/steps.ts";
import { scanGrib } from "../../../pipeline/grib/scan.ts";
import { readEccodesLines, tolerance } from "./eccodes-reference.ts";
import { fixture, fixtureBytes } from "./fixtures.ts";

const FOUR = "gfs-2p5deg-2011100800-f072-4msg.grib2";

async function runInspect(args: string[]): Promise<string> {
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    return true;
  });
  try {
    const config = readConfig({ GEODATA_DATA_DIR: os.tmpdir() });
    await gribInspectStep.run(args, { config, logger: createLogger({ sink: () => {}, minLevel: "error" }) });
  } finally {
    spy.mockRestore();
  }
  return chunks.join("");
}

afterEach(() => vi.restoreAllMocks());

describe("grib-inspect", () => {
  it("is registered as a pipeline step without an embedded default", () => {
    const step = STEPS.find((s) => s.name === "grib-inspect");
    expect(step).toBe(gribInspectStep);
    expect(step!.embeddedDefault).toBeUndefined();
  });

  it("lists one line per field: number, offset, date, parameter, level, time, grid, packing", async () => {
    const out = (await runInspect([fixture(FOUR)])).trim().split("\n");
    expect(out.length).toBe(5);
    // Offsets: the second message starts after the first (17,865 octets, section 0 length).
    expect(out[0]).toBe("1:0:d=2011100800:UGRD:10 mb:72 hour fcst:latlon 144x73 (90,0)-(-90,357.5) d=2.5x2.5:5.3 complex packing and spatial differencing");
    expect(out[1]!.startsWith("2:0:d=2011100800:VGRD:10 mb:72 hour fcst:")).toBe(true);
    expect(out[2]!.startsWith("3:17865:d=2011100800:TMP:0-0.1 m below ground:72 hour fcst:")).toBe(true);
    expect(out[3]!.startsWith("4:24034:d=2011100800:APCP:surface:66-72 hour acc fcst:")).toBe(true);
  });

  it("names the packing template in the listing (CCSDS now decodes: no 'not decodable')", async () => {
    const out = await runInspect([fixture("ecmwf-ifs-oper-surface-msg1-ccsds.grib2")]);
    expect(out.trim()).toBe("1:0:d=2026031000:var0_19_192:surface:anl:latlon 1440x721 (90,180)-(-90,179.75) d=0.25x0.25:5.42 CCSDS");
  });

  it("--message N --json prints the grid and the values (ecCodes samples, null for missing)", async () => {
    const name = "ndfd-ds.maxt-msg1.grib2";
    const doc = JSON.parse(await runInspect([fixture(name), "--message", "1", "--json"])) as {
      shortName: string; grid: { kind: string; ni: number; nj: number }; numberOfMissing: number; values: (number | null)[]; startHour: number; endHour: number;
    };
    const ref = readEccodesLines(fixture(`${name}.eccodes.jsonl`))[0]!;
    expect(doc).toMatchObject({ shortName: "TMAX", grid: { kind: "lambert", ni: ref.Ni, nj: ref.Nj }, numberOfMissing: ref.numberOfMissing, startHour: ref.startStep, endHour: ref.endStep });
    expect(doc.values.length).toBe(ref.numberOfDataPoints);
    const [field] = scanGrib(fixtureBytes(name), name);
    for (const s of ref.samples) {
      const v = doc.values[s.index];
      if (s.value === null) expect(v).toBeNull();
      else expect(Math.abs(v! - s.value)).toBeLessThanOrEqual(tolerance(field!, s.value));
    }
  });

  it("--coordinates adds every point's latitude and longitude (ecCodes samples)", async () => {
    const name = "geavg-t06z-0p50-f006-3msg.grib2";
    const doc = JSON.parse(await runInspect([fixture(name), "--message", "1", "--json", "--coordinates"])) as { latitudes: number[]; longitudes: number[]; values: number[] };
    const ref = readEccodesLines(fixture(`${name}.eccodes.jsonl`))[0]!;
    expect(doc.latitudes.length).toBe(ref.numberOfDataPoints);
    for (const s of ref.samples) {
      expect(doc.latitudes[s.index]).toBe(s.lat);
      expect(doc.longitudes[s.index]).toBe(s.lon);
    }
  });

  it("refuses bad arguments with a ConfigError naming the option", async () => {
    expect(() => parseInspectArgs([])).toThrow(ConfigError);
    expect(() => parseInspectArgs(["a.grib2", "--message", "0"])).toThrow(/--message/);
    expect(() => parseInspectArgs(["a.grib2", "--bogus"])).toThrow(/--bogus/);
    expect(() => parseInspectArgs(["a.grib2", "--coordinates"])).toThrow(/--coordinates/);
    await expect(runInspect([fixture(FOUR), "--message", "9", "--json"])).rejects.toThrow(/a field number from 1 to 5/);
  });
});
