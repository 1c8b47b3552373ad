/**
 * release.json (datasets/releases/manifest.ts): one without `format` (a release published before
 * the file list) is refused, not served unchecked; a valid one parses with its files.
 */
import { describe, expect, it } from "vitest";
import { DataFormatError } from "../../../datasets/common/errors.ts";
import { parseManifest } from "../../../datasets/releases/manifest.ts";

const ID = "20261101T000000Z";
const FILE = { path: "stations/observations.arrow", size: 16384, sha256: "c".repeat(64) };

describe("parseManifest", () => {
  it("refuses a release.json without format, naming the field and the fix", () => {
    const legacy = JSON.stringify({ dataset: "stations", id: ID, builtAt: "2026-11-01T00:00:00Z", sources: [], counts: {} });
    let thrown: unknown;
    try {
      parseManifest(legacy, "releases/stations/20261101T000000Z/release.json", { dataset: "stations", id: ID });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(DataFormatError);
    expect((thrown as Error).message).toBe(`releases/stations/20261101T000000Z/release.json, field format: expected "geodata-release" and the list of files to check, got none (a release of before the file list: rebuild it)`);
  });

  it("parses a format 1 release.json with its files", () => {
    const text = JSON.stringify({ format: "geodata-release", formatVersion: 1, dataset: "stations", id: ID, builtAt: "2026-11-01T00:00:00Z", builder: { kind: "nightly" }, files: [FILE], sources: [], counts: { stations: 3 } });
    expect(parseManifest(text, "release.json", { dataset: "stations", id: ID })).toMatchObject({ files: [FILE], counts: { stations: 3 } });
  });
});
