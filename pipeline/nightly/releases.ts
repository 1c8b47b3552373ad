/**
 * Release directories of one dataset: `<dataDir>/releases/<dataset>/<id>/` holds a complete
 * build laid out like the data directory (`places/places.idx`, ...) and its `release.json`;
 * `<dataDir>/releases/<dataset>/current` is a symbolic link to the published one. Publishing is
 * one rename of a new link over `current` (atomic on POSIX file systems), so the server sees the
 * old release or the new one, never a mix (datasets/releases/FORMAT.md).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { DatasetName } from "../../datasets/catalog.ts";
import { CURRENT_LINK, currentLinkOf, releasesRoot } from "../../datasets/releases/layout.ts";
import type { SourceVersion } from "./download.ts";

/** release.json: what a release was built from and what it holds. */
export interface ReleaseInfo {
  dataset: DatasetName;
  id: string;
  builtAt: string;
  sources: SourceVersion[];
  /** The extra step options of the configuration it was built with (a change rebuilds). */
  args?: string[];
  counts: Record<string, number>;
}

export interface Release {
  id: string;
  dir: string;
  info: ReleaseInfo | undefined;
}

/** Release ids sort by time: 20261123T201500Z (a -2, -3 ... suffix if two start in one second). */
export function releaseIdFor(now: Date): string {
  return now.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}Z$/, "Z");
}

/** Creates a fresh, empty release directory. */
export async function createRelease(dataDir: string, dataset: DatasetName, now: Date): Promise<Release> {
  const root = releasesRoot(dataDir, dataset);
  await fs.mkdir(root, { recursive: true });
  const base = releaseIdFor(now);
  for (let n = 1; ; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    try {
      await fs.mkdir(path.join(root, id));
      return { id, dir: path.join(root, id), info: undefined };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
}

/** The published release, or undefined when the dataset has never been published. */
export async function currentRelease(dataDir: string, dataset: DatasetName): Promise<Release | undefined> {
  const root = releasesRoot(dataDir, dataset);
  let id: string;
  try {
    id = path.basename(await fs.readlink(currentLinkOf(dataDir, dataset)));
  } catch {
    return undefined;
  }
  const dir = path.join(root, id);
  let info: ReleaseInfo | undefined;
  try {
    info = JSON.parse(await fs.readFile(path.join(dir, "release.json"), "utf8")) as ReleaseInfo;
  } catch {
    info = undefined;
  }
  return { id, dir, info };
}

export async function writeReleaseInfo(release: Release, info: ReleaseInfo): Promise<void> {
  await fs.writeFile(path.join(release.dir, "release.json"), JSON.stringify(info, null, 2) + "\n");
  release.info = info;
}

/** Points `current` at the release: a new relative link renamed over the old one. */
export async function publishRelease(dataDir: string, dataset: DatasetName, release: Release): Promise<void> {
  const root = releasesRoot(dataDir, dataset);
  const tmp = path.join(root, `.${CURRENT_LINK}.tmp-${process.pid}`);
  await fs.rm(tmp, { force: true });
  await fs.symlink(release.id, tmp);
  await fs.rename(tmp, currentLinkOf(dataDir, dataset));
}

/** Deletes all but the `keep` newest releases; the current one is never deleted. Returns the ids removed. */
export async function pruneReleases(dataDir: string, dataset: DatasetName, keep: number): Promise<string[]> {
  const root = releasesRoot(dataDir, dataset);
  const current = (await currentRelease(dataDir, dataset))?.id;
  const entries = await fs.readdir(root, { withFileTypes: true });
  const ids = entries.filter((e) => e.isDirectory() && /^\d{8}T\d{6}Z(-\d+)?$/.test(e.name)).map((e) => e.name);
  ids.sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  const removed: string[] = [];
  for (const id of ids.slice(keep)) {
    if (id === current) continue;
    await fs.rm(path.join(root, id), { recursive: true, force: true });
    removed.push(id);
  }
  return removed;
}

/** Removes a release that was not published (failed its build or its checks). */
export async function discardRelease(release: Release): Promise<void> {
  await fs.rm(release.dir, { recursive: true, force: true });
}
