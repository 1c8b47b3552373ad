/**
 * Damaged input never crashes the decoders with anything but a typed error: real fixtures with
 * seeded random octets changed (mostly in section headers) and cut at random lengths.
 */
import { describe, expect, it } from "vitest";
import { DataFormatError } from "../../../datasets/common/errors.ts";
import { gridCoordinates } from "../../../pipeline/grib/coordinates.ts";
import { decodeField } from "../../../pipeline/grib/decode.ts";
import { UnsupportedGribError } from "../../../pipeline/grib/errors.ts";
import { scanGrib } from "../../../pipeline/grib/scan.ts";
import { fixtureBytes } from "./fixtures.ts";

/** Deterministic PRNG (LCG, Numerical Recipes constants). */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Runs scan, decode and coordinates; returns the name of an untyped error, or undefined. */
function untypedError(bytes: Uint8Array): string | undefined {
  const typed = (e: unknown): boolean => e instanceof DataFormatError || e instanceof UnsupportedGribError;
  let fields;
  try {
    fields = scanGrib(bytes, "damaged");
  } catch (e) {
    return typed(e) ? undefined : String(e);
  }
  for (const field of fields) {
    for (const step of [() => decodeField(bytes, field, "damaged"), () => gridCoordinates(field, "damaged")]) {
      try {
        step();
      } catch (e) {
        if (!typed(e)) return String(e);
      }
    }
  }
  return undefined;
}

const FIXTURES = ["gfs-2p5deg-2011100800-f072-4msg.grib2", "gfs-0p5-zygrib-2013021406-2msg.grib1", "geavg-t06z-0p50-f006-3msg.grib2", "ecmwf-ifs-oper-surface-msg1-ccsds.grib2"];

describe("damaged GRIB input", () => {
  for (const name of FIXTURES) {
    it(`${name}: 200 random header mutations give results or typed errors`, () => {
      const original = fixtureBytes(name);
      const fields = scanGrib(original, name);
      const rnd = prng(0x6e1b + name.length);
      const failures: string[] = [];
      for (let trial = 0; trial < 200; trial++) {
        const bytes = original.slice();
        for (let m = 1 + Math.floor(rnd() * 3); m > 0; m--) {
          const f = fields[Math.floor(rnd() * fields.length)]!;
          const starts = [f.messageOffset, f.sections.grid, f.sections.product, f.sections.representation, f.sections.bitmap, f.sections.data].filter((o) => o >= 0);
          const at = starts[Math.floor(rnd() * starts.length)]! + Math.floor(rnd() * 60);
          if (at < bytes.length) bytes[at] = Math.floor(rnd() * 256);
        }
        const problem = untypedError(bytes);
        if (problem) failures.push(`trial ${trial}: ${problem}`);
      }
      expect(failures).toEqual([]);
    });

    it(`${name}: cut at 100 random lengths`, () => {
      const original = fixtureBytes(name);
      const rnd = prng(0x7a11 + name.length);
      const failures: string[] = [];
      for (let trial = 0; trial < 100; trial++) {
        const problem = untypedError(original.subarray(0, Math.floor(rnd() * original.length)));
        if (problem) failures.push(`trial ${trial}: ${problem}`);
      }
      expect(failures).toEqual([]);
    });
  }
});
