/**
 * Releases made by hand for tests (datasets/releases/FORMAT.md): a release directory filled with
 * hard links to a built dataset's files (or written by a step), its release.json listing every
 * file, and the pointer switched the way the pipeline switches it.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { DatasetName } from "../../datasets/catalog.ts";
import { MANIFEST_FILE, releaseDirOf } from "../../datasets/releases/layout.ts";
import { encodeManifest, MANIFEST_FORMAT, MANIFEST_VERSION } from "../../datasets/releases/manifest.ts";
import { describeFiles, publishRelease } from "../../pipeline/releases/release-dir.ts";

/** Hard-links every file under `from` into `to`, recursively; files already in `to` stay. */
export async function linkTree(from: string, to: string): Promise<void> {
  await fs.mkdir(to, { recursive: true });
  for (const e of await fs.readdir(from, { withFileTypes: true })) {
    if (e.isDirectory()) await linkTree(path.join(from, e.name), path.join(to, e.name));
    else if (e.isFile()) {
      await fs.link(path.join(from, e.name), path.join(to, e.name)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== "EEXIST") throw err;
      });
    }
  }
}

/** Writes the release.json of release `id` from the files its directory holds now; returns the directory. */
export async function writeManifest(dataDir: string, dataset: DatasetName, id: string): Promise<string> {
  const dir = releaseDirOf(dataDir, dataset, id);
  const manifest = { format: MANIFEST_FORMAT, formatVersion: MANIFEST_VERSION, dataset, id, builtAt: new Date().toISOString(), builder: { kind: "step" as const }, files: await describeFiles(dir), sources: [], counts: {} };
  await fs.writeFile(path.join(dir, MANIFEST_FILE), encodeManifest(manifest));
  return dir;
}

/** Release `id` of `dataset` made of the dataset's files in `fromDataDir` (a directory laid out like a data directory). */
export async function linkRelease(dataDir: string, dataset: DatasetName, id: string, fromDataDir: string): Promise<string> {
  await linkTree(path.join(fromDataDir, dataset), path.join(releaseDirOf(dataDir, dataset, id), dataset));
  return writeManifest(dataDir, dataset, id);
}

/** Points the dataset's current.txt (and link) at `id`. */
export const pointAt = (dataDir: string, dataset: DatasetName, id: string): Promise<void> => publishRelease(dataDir, dataset, id);
