/**
 * Finds the release of a dataset that is published: the one `current.txt` names. Older data
 * directories keep working: without `current.txt` the symbolic link `current` is followed
 * (releases published before the pointer file existed), and without either the dataset is read
 * at `<dataDir>/<file>` (the unreleased layout of the first `npm start` of older versions).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { DatasetName } from "../catalog.ts";
import { currentLinkOf, pointerFileOf, releaseDirOf, shownPath } from "./layout.ts";
import { readPointer } from "./pointer.ts";

export interface DatasetLocation {
  /** The directory laid out like the data directory that holds the dataset. */
  dir: string;
  /** The release id, or undefined for the unreleased layout (`<dataDir>/<file>`). */
  release: string | undefined;
  /** How the release was found: the pointer file, the legacy link, or none (unreleased layout). */
  via: "pointer" | "link" | "none";
}

/** The release the pointer file names, else the one the legacy link names, else the data directory itself. */
export async function locateDataset(dataDir: string, dataset: DatasetName): Promise<DatasetLocation> {
  const id = await readPointer(pointerFileOf(dataDir, dataset), shownPath(dataDir, pointerFileOf(dataDir, dataset)));
  if (id !== undefined) return { dir: releaseDirOf(dataDir, dataset, id), release: id, via: "pointer" };
  try {
    const linked = path.basename(await fs.readlink(currentLinkOf(dataDir, dataset)));
    return { dir: releaseDirOf(dataDir, dataset, linked), release: linked, via: "link" };
  } catch {
    return { dir: dataDir, release: undefined, via: "none" };
  }
}
