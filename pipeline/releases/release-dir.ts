/**
 * The releases of one dataset as the pipeline writes them (datasets/releases/FORMAT.md): a release
 * is assembled in a hidden directory (`.build-<id>` or `.sync-<id>`), its release.json written
 * last, then renamed to `<id>` whole; only then does `current.txt` name it. A half-assembled
 * release is never pointed at, and a killed run leaves only hidden directories, which the next
 * writer of the dataset removes (removeLeftovers, under the dataset's lock).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { DatasetName } from "../../datasets/catalog.ts";
import { writeFileAtomic } from "../../datasets/artifact/atomic-write.ts";
import { CheckedFiles, keepingChecks } from "../../datasets/releases/checked-files.ts";
import { sha256Files } from "../../datasets/releases/hash-files.ts";
import { BUILDING_PREFIX, currentLinkOf, LOCK_FILE, MANIFEST_FILE, pointerFileOf, RELEASE_ID, releaseDirOf, releasesRoot, shownPath } from "../../datasets/releases/layout.ts";
import { locateDataset } from "../../datasets/releases/locate.ts";
import { encodeManifest, MANIFEST_FORMAT, MANIFEST_VERSION, type ReleaseFile, type ReleaseManifest } from "../../datasets/releases/manifest.ts";
import { writePointer } from "../../datasets/releases/pointer.ts";
import { readManifest } from "../../datasets/releases/verify.ts";

export interface Release {
  id: string;
  dir: string;
  /** Undefined when its release.json is missing or unreadable. */
  manifest: ReleaseManifest | undefined;
}

/** A release being assembled: in `dir` (hidden) until finishRelease renames it to `finalDir`. */
export interface Assembly {
  dataDir: string;
  dataset: DatasetName;
  id: string;
  dir: string;
  finalDir: string;
}

/** What the caller says of a release; the rest (format, dataset, id, files) finishRelease adds. */
export type ReleaseDescription = Omit<ReleaseManifest, "format" | "formatVersion" | "dataset" | "id" | "files">;

/** Release ids sort by time: 20261123T201500Z (a -2, -3 ... suffix if two start in one second). */
export function releaseIdFor(now: Date): string {
  return now.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}Z$/, "Z");
}

/** The published release (by current.txt, else the legacy link), or undefined when the dataset has none. */
export async function currentRelease(dataDir: string, dataset: DatasetName): Promise<Release | undefined> {
  const location = await locateDataset(dataDir, dataset);
  if (location.release === undefined) return undefined;
  const show = (p: string) => shownPath(dataDir, path.join(location.dir, p));
  const manifest = await readManifest(location.dir, show, { dataset, id: location.release }).catch(() => undefined);
  return { id: location.release, dir: location.dir, manifest };
}

/** Creates the hidden directory of a new release, under an id no other release or assembly of the dataset has. */
export async function beginRelease(dataDir: string, dataset: DatasetName, now: Date, prefix = BUILDING_PREFIX): Promise<Assembly> {
  const root = releasesRoot(dataDir, dataset);
  await fs.mkdir(root, { recursive: true });
  const base = releaseIdFor(now);
  const taken = new Set((await fs.readdir(root)).map((n) => n.replace(/^\.(build|sync)-/, "")));
  for (let n = 1; ; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    if (taken.has(id)) continue;
    const dir = path.join(root, `${prefix}${id}`);
    try {
      await fs.mkdir(dir);
      return { dataDir, dataset, id, dir, finalDir: releaseDirOf(dataDir, dataset, id) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
}

/** Every regular file under `dir` but release.json, relative and `/`-separated, sorted. */
async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix === "" ? e.name : `${prefix}/${e.name}`;
    if (rel === MANIFEST_FILE) continue;
    // Symbolic links are followed (tests link the default's files into releases).
    const stat = e.isSymbolicLink() ? await fs.stat(path.join(dir, rel)) : e;
    if (stat.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else if (stat.isFile()) out.push(rel);
  }
  return out.sort();
}

/**
 * The files of a release directory with their sizes and SHA-256 (hashed off the event loop; a
 * file `checked` remembers at its version, e.g. hard-linked from the previous release, is not
 * read, and every file hashed is remembered as the file it becomes in `finalDir`).
 */
export async function describeFiles(dir: string, memory?: { checked: CheckedFiles; finalDir: string }): Promise<ReleaseFile[]> {
  const paths = await listFiles(dir);
  const sums = await sha256Files(paths.map((p) => path.join(dir, p)), memory ? { checked: memory.checked, finalPath: (i) => path.join(memory.finalDir, paths[i]!) } : {});
  const files: ReleaseFile[] = [];
  for (const [i, p] of paths.entries()) files.push({ path: p, size: (await fs.stat(path.join(dir, p))).size, sha256: sums[i]! });
  return files;
}

/**
 * Writes release.json (listing every file) into the assembly, then renames it to its id. The
 * checksums computed are remembered (checked-files.ts): the server does not hash the files again.
 */
export async function finishRelease(a: Assembly, description: ReleaseDescription): Promise<ReleaseManifest> {
  const checked = await CheckedFiles.open(a.dataDir);
  const manifest: ReleaseManifest = { format: MANIFEST_FORMAT, formatVersion: MANIFEST_VERSION, dataset: a.dataset, id: a.id, ...description, files: await describeFiles(a.dir, { checked, finalDir: a.finalDir }) };
  await writeFileAtomic(path.join(a.dir, MANIFEST_FILE), [Buffer.from(encodeManifest(manifest))]);
  await fs.rename(a.dir, a.finalDir);
  await checked.save();
  return manifest;
}

/** Points current.txt (and the legacy link) at release `id`, which must be complete. */
export async function publishRelease(dataDir: string, dataset: DatasetName, id: string): Promise<void> {
  await writePointer(pointerFileOf(dataDir, dataset), id, currentLinkOf(dataDir, dataset));
}

/** Removes a release or an assembly that was not published. */
export async function discardRelease(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true });
}

/**
 * Deletes all but the `keep` newest releases; the current one is never deleted. Returns the ids
 * removed. The kept releases' files that shared an inode with a removed one keep their
 * remembered checks (checked-files.ts keepingChecks): pruning does not cost the server a hash.
 */
export async function pruneReleases(dataDir: string, dataset: DatasetName, keep: number): Promise<string[]> {
  const root = releasesRoot(dataDir, dataset);
  const current = (await locateDataset(dataDir, dataset)).release;
  const ids = (await fs.readdir(root, { withFileTypes: true })).filter((e) => e.isDirectory() && RELEASE_ID.test(e.name)).map((e) => e.name);
  ids.sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  const doomed = ids.slice(keep).filter((id) => id !== current);
  if (doomed.length === 0) return [];
  const kept: string[] = [];
  for (const id of ids.filter((i) => !doomed.includes(i))) kept.push(...(await listFiles(path.join(root, id)).catch(() => [] as string[])).map((p) => path.join(root, id, p)));
  const checked = await CheckedFiles.open(dataDir);
  await keepingChecks(checked, kept, async () => {
    for (const id of doomed) await fs.rm(path.join(root, id), { recursive: true, force: true });
  });
  await checked.save();
  return doomed;
}

/**
 * Removes what killed runs left in the dataset's releases directory: assemblies (`.build-*`,
 * `.sync-*`, except the one named `keep`, which sync resumes) and temporary pointer files and
 * links. Call it only while holding the dataset's lock (no live writer then). Returns the names
 * removed.
 */
export async function removeLeftovers(dataDir: string, dataset: DatasetName, keep?: string): Promise<string[]> {
  const root = releasesRoot(dataDir, dataset);
  const names = await fs.readdir(root).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    if (name === keep || name === LOCK_FILE) continue;
    if (/^\.(build|sync)-/.test(name) || /\.(tmp-\d+|stale)-[0-9a-f]+$/.test(name) || /^\.current\.tmp/.test(name)) {
      await fs.rm(path.join(root, name), { recursive: true, force: true });
      removed.push(name);
    }
  }
  return removed;
}
