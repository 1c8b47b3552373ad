/**
 * The lock every writer of a dataset's releases holds while it writes (build-default, the nightly,
 * a step run by hand, sync): processes sharing one data directory, on one host or several, never
 * build or assemble the same dataset at once. A second writer waits for the first (and then
 * usually finds the release it wanted already there). Once the lock is held, what killed runs
 * left is removed.
 */
import path from "node:path";
import type { DatasetName } from "../../datasets/catalog.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { LOCK_FILE, releasesRoot } from "../../datasets/releases/layout.ts";
import { acquireLock, type HeldLock } from "./lock.ts";
import { removeLeftovers } from "./release-dir.ts";

export type DatasetLockOptions = {
  /** An assembly to keep when cleaning up (sync resumes `.sync-<id>` of the release it is fetching). */
  keep?: string;
  staleMs?: number;
  pollMs?: number;
};

/** Takes `releases/<dataset>/.lock` (waiting for a live holder), then removes leftovers of killed runs. */
export async function lockDataset(dataDir: string, dataset: DatasetName, logger: Logger, options: DatasetLockOptions = {}): Promise<HeldLock> {
  const lock = await acquireLock(path.join(releasesRoot(dataDir, dataset), LOCK_FILE), {
    wait: true,
    ...(options.staleMs !== undefined ? { staleMs: options.staleMs } : {}),
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
    onWait: (holder) => logger.info("waiting for the dataset's lock", { dataset, holder }),
  });
  if (lock.recoveredFrom) logger.warn("stale dataset lock taken over", { dataset, previous: lock.recoveredFrom });
  const removed = await removeLeftovers(dataDir, dataset, options.keep);
  if (removed.length > 0) logger.warn("removed what a killed run left", { dataset, removed });
  return lock;
}
