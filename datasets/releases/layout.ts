/**
 * Where released datasets live (FORMAT.md beside this file): `<dataDir>/releases/<dataset>/<id>/`
 * laid out like the data directory, with its `release.json`, and the pointer file `current.txt`
 * naming the published release: the names and paths, shared by the pipeline (which writes
 * releases: every build, the embedded default's included, and sync) and the server.
 */
import path from "node:path";
import type { DatasetName } from "../catalog.ts";

/** The pointer file: one line, the release id. Read over plain HTTP by `sync`. */
export const POINTER_FILE = "current.txt";
/** The symbolic link kept beside it for tools and servers of before the pointer file. */
export const CURRENT_LINK = "current";
/** What a release holds and how it was built (manifest.ts). */
export const MANIFEST_FILE = "release.json";
/** Taken by any process that writes releases of a dataset (pipeline/releases/lock.ts). */
export const LOCK_FILE = ".lock";
/** Prefixes of the directories where a release is assembled before it is renamed to its id. */
export const BUILDING_PREFIX = ".build-";
export const SYNCING_PREFIX = ".sync-";

/** A release id: the UTC start time of its build, `YYYYMMDDTHHMMSSZ`, then `-2`, `-3`... when two start in one second. */
export const RELEASE_ID = /^\d{8}T\d{6}Z(-\d+)?$/;

export function releasesRoot(dataDir: string, dataset: DatasetName): string {
  return path.join(dataDir, "releases", dataset);
}

export function releaseDirOf(dataDir: string, dataset: DatasetName, id: string): string {
  return path.join(releasesRoot(dataDir, dataset), id);
}

export function pointerFileOf(dataDir: string, dataset: DatasetName): string {
  return path.join(releasesRoot(dataDir, dataset), POINTER_FILE);
}

export function currentLinkOf(dataDir: string, dataset: DatasetName): string {
  return path.join(releasesRoot(dataDir, dataset), CURRENT_LINK);
}

/** The path of a file of a dataset relative to the data directory, as messages show it (`/`-separated). */
export function shownPath(dataDir: string, file: string): string {
  const rel = path.relative(dataDir, file);
  return rel.startsWith("..") || path.isAbsolute(rel) ? path.basename(file) : rel.split(path.sep).join("/");
}
