/**
 * The background scrub (server/datasets/scrub.ts) over a real release (the embedded default's
 * elevation files, copied): throttled to the period's share of the serving bytes per tick (at
 * least 64 KiB), a whole pass recorded in /health's progress, and a file that rotted after the
 * release was checked (same size, same inode) reported with what it holds.
 */
import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { releaseDirOf } from "../../../datasets/releases/layout.ts";
import { releaseBytes } from "../../../datasets/releases/manifest.ts";
import { ReleaseFileError } from "../../../datasets/releases/release-file-error.ts";
import { loadDatasets, type DatasetRegistry } from "../../../server/datasets/registry.ts";
import { Scrubber } from "../../../server/datasets/scrub.ts";
import { LOADERS } from "../../../server/loaders.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { pointAt, writeManifest } from "../../helpers/releases.ts";

const R1 = "20261101T000000Z";
const TILE = "elevation/srtm3/N00E010.tif";

let dir: string;
let registry: DatasetRegistry;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-scrub-"));
  await fs.cp(path.join(await defaultDatasetDir("elevation"), "elevation"), path.join(releaseDirOf(dir, "elevation", R1), "elevation"), { recursive: true });
  await writeManifest(dir, "elevation", R1);
  await pointAt(dir, "elevation", R1);
  registry = await loadDatasets(readConfig({ GEODATA_DATA_DIR: dir }), silentLogger, LOADERS);
}, 600_000);

afterAll(async () => {
  await registry?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

const progress = () => registry.list().find((d) => d.name === "elevation")!.scrub;

describe("the scrub", () => {
  it("reads the period's share of the serving bytes per tick, then a whole pass, and reports a file that rotted", async () => {
    const damaged: Array<{ file: string; error: Error }> = [];
    const total = releaseBytes(registry.servedRelease("elevation")!.manifest.files);
    // A pass a day at one tick a second is far below 64 KiB a tick: the floor applies.
    expect(total / 86_400).toBeLessThan(64 * 1024);
    const scrubber = new Scrubber({ registry, periodMs: 86_400_000, onDamage: (_dataset, file, error) => damaged.push({ file, error }) });
    // Started, every serving release shows 0; stopped before its first tick, then ticked here.
    scrubber.start();
    expect(progress()).toEqual({ bytes: total, checkedBytes: 0, passes: 0 });
    await scrubber.stop();
    await scrubber.tick();
    expect(progress()).toMatchObject({ bytes: total, passes: 0 });
    expect(progress()!.checkedBytes).toBeGreaterThan(60 * 1024);
    expect(progress()!.checkedBytes).toBeLessThanOrEqual(64 * 1024);

    for (let i = 0; i < 10_000 && progress()!.passes === 0; i++) await scrubber.tick(4 * 1024 * 1024);
    expect(progress()).toMatchObject({ bytes: total, passes: 1 });
    expect(progress()!.lastPassAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(damaged).toEqual([]);

    // Rot: one byte of the tile flipped in place.
    const tile = path.join(releaseDirOf(dir, "elevation", R1), TILE);
    const bytes = await fs.readFile(tile);
    bytes[bytes.length >> 1]! ^= 0x01;
    const handle = await fs.open(tile, "r+");
    await handle.write(bytes, 0, bytes.length, 0);
    await handle.close();
    for (let i = 0; i < 10_000 && progress()!.passes === 1; i++) await scrubber.tick(4 * 1024 * 1024);
    await scrubber.stop(); // closes the file it holds
    expect(progress()!.passes).toBe(2);
    expect(damaged.map((d) => d.file)).toEqual([tile]);
    const error = damaged[0]!.error as ReleaseFileError;
    expect(error).toBeInstanceOf(ReleaseFileError);
    expect(error.fault).toBe("sha256");
    expect(error.got).toBe(createHash("sha256").update(bytes).digest("hex"));
  }, 120_000);
});
