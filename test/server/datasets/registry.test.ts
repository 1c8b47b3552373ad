/**
 * A missing or corrupt artifact makes only the endpoints that need it answer 503; the others
 * keep serving. Uses real enveloped files and the generic envelope check as every loader.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeArtifact } from "../../../datasets/artifact/write-artifact.ts";
import { DATASETS } from "../../../datasets/catalog.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { readCheckedArtifact } from "../../../server/datasets/check-envelope.ts";
import type { LoaderTable } from "../../../server/datasets/loader.ts";
import { loadDatasets } from "../../../server/datasets/registry.ts";

const checkOnly = {
  places: readCheckedArtifact,
  admin: readCheckedArtifact,
  elevation: readCheckedArtifact,
  stations: readCheckedArtifact,
  forecast: readCheckedArtifact,
} as unknown as LoaderTable;

let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-reg-"));
  const spec = DATASETS.admin;
  await writeArtifact(path.join(dir, spec.file), { magic: spec.magic, formatVersion: spec.formatVersion, kind: "admin", sources: [], counts: { cells: 1 } }, [new Uint8Array(16)]);
  // A forecast file whose last byte was flipped after writing.
  const f = DATASETS.forecast;
  const fPath = path.join(dir, f.file);
  await writeArtifact(fPath, { magic: f.magic, formatVersion: f.formatVersion, kind: "forecast", sources: [], counts: {} }, [new Uint8Array(64).fill(7)]);
  const bytes = await fs.readFile(fPath);
  bytes[bytes.length - 1] = 0;
  await fs.writeFile(fPath, bytes);
  // An elevation index with another kind's magic.
  const e = DATASETS.elevation;
  await writeArtifact(path.join(dir, e.file), { magic: "GEODXXXX", formatVersion: e.formatVersion, kind: "x", sources: [], counts: {} }, [new Uint8Array(8)]);
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe("loadDatasets", () => {
  it("records ready, missing and invalid datasets with reasons", async () => {
    const registry = await loadDatasets(readConfig({ GEODATA_DATA_DIR: dir }), silentLogger, checkOnly);
    const byName = Object.fromEntries(registry.list().map((s) => [s.name, s]));
    expect(byName.admin).toMatchObject({ status: "ready", formatVersion: DATASETS.admin.formatVersion, counts: { cells: 1 } });
    expect(byName.admin!.builtAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(byName.places).toMatchObject({ status: "missing" });
    expect(byName.places!.message).toContain("npm run pipeline -- places");
    expect(byName.forecast).toMatchObject({ status: "invalid" });
    expect(byName.forecast!.message).toMatch(/CRC-32/);
    expect(byName.elevation).toMatchObject({ status: "invalid" });
    expect(byName.elevation!.message).toMatch(/expected magic GEODELEV, got "GEODXXXX"/);
    expect(registry.isReady("admin")).toBe(true);
    expect(registry.isReady("forecast")).toBe(false);
  });
});
