/**
 * One sync pass: for each dataset, read the builder's pointer (`releases/<dataset>/current.txt`,
 * conditional on the ETag of the last pass); when it names a release this node does not serve,
 * fetch that release's release.json, then every file it lists into `releases/<dataset>/.sync-<id>/`
 * (hard-linked when a local release holds a file of the same SHA-256, else downloaded or copied:
 * fetch-file.ts), check that every file is there with its size, rename the directory to `<id>`,
 * and only then write the local pointer; then prune. A missing, truncated or tampered file
 * refuses the release: the one serving stays, the dataset is reported failed, the others go on.
 * Each dataset is synced under its lock (pipeline/releases/dataset-lock.ts).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { DATASET_NAMES, type DatasetName } from "../../datasets/catalog.ts";
import type { Config } from "../../datasets/common/config.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { CheckedFiles, fileVersion } from "../../datasets/releases/checked-files.ts";
import { MANIFEST_FILE, POINTER_FILE, releaseDirOf, releasesRoot, shownPath, SYNCING_PREFIX } from "../../datasets/releases/layout.ts";
import { parseManifest, releaseBytes } from "../../datasets/releases/manifest.ts";
import { parsePointer } from "../../datasets/releases/pointer.ts";
import { missingFiles, readManifest } from "../../datasets/releases/verify.ts";
import { lockDataset } from "../releases/dataset-lock.ts";
import { currentRelease, discardRelease, publishRelease, pruneReleases } from "../releases/release-dir.ts";
import { fetchFile } from "./fetch-file.ts";
import { heldFiles, linkOrCopy } from "./local-files.ts";
import type { Origin } from "./origin.ts";
import { seconds } from "../common/progress.ts";
import type { SyncSummary } from "./summary.ts";

export type SyncOptions = {
  config: Config;
  origin: Origin;
  logger: Logger;
  /** Only these datasets (default every dataset of the catalog the origin publishes). */
  datasets?: readonly DatasetName[] | undefined;
  /** The pointer's ETag per dataset from the previous pass (`--interval`), updated in place. */
  etags?: Map<DatasetName, { etag: string; id: string }>;
  attempts?: number;
  backoffMs?: number;
  signal?: AbortSignal;
};

class SyncError extends Error {}

/** Reads the origin's pointer: the release id it names, or undefined when the origin publishes no release of the dataset. */
async function remoteRelease(dataset: DatasetName, o: SyncOptions): Promise<string | undefined> {
  const rel = `releases/${dataset}/${POINTER_FILE}`;
  const known = o.etags?.get(dataset);
  const answer = await o.origin.readText(rel, { ...(known ? { etag: known.etag } : {}), ...(o.signal ? { signal: o.signal } : {}) });
  if (answer.status === "absent") return undefined;
  if (answer.status === "not-modified") return known!.id;
  const id = parsePointer(answer.text, o.origin.where(rel));
  if (answer.etag) o.etags?.set(dataset, { etag: answer.etag, id });
  return id;
}

/** Remembers that `file`, as it is now, holds `sha256`; `finalPath` is where it will be once the release is in place. */
async function rememberAs(checked: CheckedFiles, file: string, sha256: string, finalPath: string): Promise<void> {
  const version = await fileVersion(file);
  if (version !== undefined) checked.remember(version, sha256, finalPath);
}

/** Assembles release `id` under its lock and points at it; fills the summary. */
async function pull(dataset: DatasetName, id: string, o: SyncOptions, s: SyncSummary, log: Logger): Promise<void> {
  const dataDir = o.config.dataDir;
  const shown = (file: string) => shownPath(dataDir, file);
  const finalDir = releaseDirOf(dataDir, dataset, id);
  const assemblyName = `${SYNCING_PREFIX}${id}`;
  const assembly = path.join(releasesRoot(dataDir, dataset), assemblyName);
  // A complete copy already here (the builder rolled back to a release this node kept): point at it.
  const here = await readManifest(finalDir, (p) => p, { dataset, id }).catch(() => undefined);
  if (here && (await missingFiles(finalDir, here.files, (p) => shown(path.join(finalDir, p))).catch(() => "refused")) === undefined) {
    s.files = here.files.length;
  } else {
    const manifestRel = `releases/${dataset}/${id}/${MANIFEST_FILE}`;
    const answer = await o.origin.readText(manifestRel, o.signal ? { signal: o.signal } : {});
    if (answer.status !== "ok") throw new SyncError(`${o.origin.where(manifestRel)}: expected the release's ${MANIFEST_FILE}, got nothing (not found)`);
    const manifest = parseManifest(answer.text, o.origin.where(manifestRel), { dataset, id });
    s.files = manifest.files.length;
    s.bytes = releaseBytes(manifest.files);
    const held = await heldFiles(dataDir, dataset);
    const checked = await CheckedFiles.open(dataDir);
    log.info("syncing release", { release: id, files: manifest.files.length, bytes: s.bytes, from: o.origin.where(`releases/${dataset}/${id}/`) });
    await fs.mkdir(assembly, { recursive: true });
    for (const f of manifest.files) {
      const target = path.join(assembly, ...f.path.split("/"));
      if ((await fs.stat(target).catch(() => undefined))?.size === f.size) {
        // Checked and renamed into place by a run that was killed later: kept.
        s.kept++;
        continue;
      }
      const local = held.get(f.sha256);
      if (local && local.size === f.size) {
        // The held file's check, remembered, carries over to the link (which changes its ctime).
        const known = checked.sha256Of((await fileVersion(local.file)) ?? "") === f.sha256;
        if (await linkOrCopy(local.file, target)) {
          if (known) await rememberAs(checked, target, f.sha256, path.join(finalDir, ...f.path.split("/")));
          s.linked++;
          s.bytesLinked += f.size;
        } else {
          s.copied++;
          s.bytesCopied += f.size;
        }
        continue;
      }
      const got = await fetchFile(o.origin, `releases/${dataset}/${id}/${f.path}`, f, target, {
        logger: log,
        shown: shown(path.join(finalDir, ...f.path.split("/"))),
        ...(o.attempts !== undefined ? { attempts: o.attempts } : {}),
        ...(o.backoffMs !== undefined ? { backoffMs: o.backoffMs } : {}),
        ...(o.signal ? { signal: o.signal } : {}),
      });
      // Hashed as it arrived, against release.json: remembered, the server does not hash it again.
      await rememberAs(checked, target, f.sha256, path.join(finalDir, ...f.path.split("/")));
      s.downloaded++;
      s.bytesDownloaded += f.size;
      s.bytesFetched += got.bytesFetched;
      if (got.resumed) s.resumed++;
    }
    const missing = await missingFiles(assembly, manifest.files, (p) => shown(path.join(finalDir, p)));
    if (missing !== undefined) throw new SyncError(`the assembled release is incomplete: ${missing}`);
    // release.json last, exactly as the builder wrote it; then the whole directory becomes the release.
    await fs.writeFile(path.join(assembly, MANIFEST_FILE), answer.text);
    await discardRelease(finalDir);
    await fs.rename(assembly, finalDir);
    await checked.save();
  }
  await publishRelease(dataDir, dataset, id);
  s.status = "synced";
  s.release = id;
  log.info("release synced", { release: id, previous: s.previousRelease, linked: s.linked, downloaded: s.downloaded, bytesFetched: s.bytesFetched });
}

export async function syncDataset(dataset: DatasetName, o: SyncOptions): Promise<SyncSummary> {
  const log = o.logger.child({ dataset });
  const started = performance.now();
  const s: SyncSummary = {
    dataset, status: "failed", release: undefined, previousRelease: undefined, files: 0, bytes: 0, kept: 0, linked: 0, copied: 0, downloaded: 0,
    resumed: 0, bytesLinked: 0, bytesCopied: 0, bytesDownloaded: 0, bytesFetched: 0, durationS: 0, pruned: [],
  };
  try {
    const id = await remoteRelease(dataset, o);
    if (id === undefined) {
      s.status = "absent";
      s.reason = `${o.origin.where(`releases/${dataset}/${POINTER_FILE}`)}: no release published`;
      return s;
    }
    const lock = await lockDataset(o.config.dataDir, dataset, log, { keep: `${SYNCING_PREFIX}${id}` });
    try {
      const current = await currentRelease(o.config.dataDir, dataset);
      s.previousRelease = current?.id;
      s.release = current?.id;
      if (current?.id === id) s.status = "unchanged";
      else {
        await pull(dataset, id, o, s, log).catch(async (err: unknown) => {
          // What the failed pull assembled is removed (the next run starts over); a run stopped by
          // a signal keeps it for the next run to resume, as a killed run's is.
          if (!o.signal?.aborted) await discardRelease(path.join(releasesRoot(o.config.dataDir, dataset), `${SYNCING_PREFIX}${id}`)).catch(() => undefined);
          throw err;
        });
      }
      s.pruned = await pruneReleases(o.config.dataDir, dataset, o.config.keepReleases);
    } finally {
      await lock.release();
    }
  } catch (err) {
    s.status = "failed";
    s.reason = (err as Error).message;
    log.error("sync failed; the release serving stays", { release: s.previousRelease, reason: s.reason });
  } finally {
    s.durationS = seconds(performance.now() - started);
  }
  return s;
}

/** Syncs every dataset asked for (or every dataset of the catalog), one after the other; never throws for one dataset's failure. */
export async function runSync(o: SyncOptions): Promise<SyncSummary[]> {
  const out: SyncSummary[] = [];
  for (const dataset of o.datasets ?? DATASET_NAMES) {
    if (o.signal?.aborted) break;
    out.push(await syncDataset(dataset, o));
  }
  return out;
}
