/**
 * Where released datasets live (FORMAT.md beside this file): `<dataDir>/releases/<dataset>/<id>/`
 * laid out like the data directory, and the `current` link naming the published release. Shared
 * by the nightly (which writes them) and the server (which follows `current`, and falls back to
 * `<dataDir>/<file>` when a dataset has never been released, as `npm start` builds it).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { DatasetName } from "../catalog.ts";

export const CURRENT_LINK = "current";

export function releasesRoot(dataDir: string, dataset: DatasetName): string {
  return path.join(dataDir, "releases", dataset);
}

export function currentLinkOf(dataDir: string, dataset: DatasetName): string {
  return path.join(releasesRoot(dataDir, dataset), CURRENT_LINK);
}

export interface DatasetLocation {
  /** The directory laid out like the data directory that holds the dataset. */
  dir: string;
  /** The release id, or undefined for the unreleased layout (`<dataDir>/<file>`). */
  release: string | undefined;
}

/** Follows `current` when it exists; else the data directory itself. */
export async function locateDataset(dataDir: string, dataset: DatasetName): Promise<DatasetLocation> {
  try {
    const id = path.basename(await fs.readlink(currentLinkOf(dataDir, dataset)));
    return { dir: path.join(releasesRoot(dataDir, dataset), id), release: id };
  } catch {
    return { dir: dataDir, release: undefined };
  }
}
