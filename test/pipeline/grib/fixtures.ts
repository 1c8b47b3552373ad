/** Paths of the committed GRIB fixtures (see test/fixtures/grib/README.md). */
import path from "node:path";
import { readFileSync } from "node:fs";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";

export const FIXTURE_DIR = path.join(PROJECT_ROOT, "test", "fixtures", "grib");

export function fixture(name: string): string {
  return path.join(FIXTURE_DIR, name);
}

export function fixtureBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(fixture(name)));
}
