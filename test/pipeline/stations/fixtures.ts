/** Reads a committed fixture of test/fixtures/stations as latin1 (byte = character). */
import { readFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";

export const FIXTURES = path.join(PROJECT_ROOT, "test", "fixtures", "stations");

export function fixture(name: string): string {
  return readFileSync(path.join(FIXTURES, name)).toString("latin1");
}

export function fixtureLines(name: string): string[] {
  return fixture(name).split(/\r?\n/).filter((l) => l.trim() !== "");
}
