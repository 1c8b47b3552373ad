/**
 * The cluster primary's check of every dataset's current release before it forks the workers
 * (server/primary.ts): the files are hashed once, here, and remembered in the data directory, so
 * the workers, which check their releases on their own as they open them (open-dataset.ts), find
 * them remembered and read none. Without it, N workers started on releases never seen before (a
 * copied or rsynced data directory) hash the same files N times at once: at full size, N x 18.5 GB
 * of elevation tiles.
 *
 * It decides nothing: a release that fails here is only logged, and each worker checks it again,
 * falls back and reports it as it would alone (registry.ts).
 */
import path from "node:path";
import { DATASET_NAMES } from "../../datasets/catalog.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { CheckedFiles } from "../../datasets/releases/checked-files.ts";
import { shownPath } from "../../datasets/releases/layout.ts";
import { locateDataset } from "../../datasets/releases/locate.ts";
import { verifyRelease, type CheckCost } from "../../datasets/releases/verify.ts";
import { saveChecked, withoutDataDir } from "./open-dataset.ts";

/** What the check read, summed over the datasets. */
export type CheckSummary = Pick<CheckCost, "hashed" | "hashedBytes"> & { releases: number; failed: number };

/** Checks the current release of every dataset under `dataDir` (files remembered are not read) and remembers what it hashed. */
export async function checkCurrentReleases(dataDir: string, logger: Logger): Promise<CheckSummary> {
  const summary: CheckSummary = { releases: 0, failed: 0, hashed: 0, hashedBytes: 0 };
  const checked = await CheckedFiles.open(dataDir);
  for (const dataset of DATASET_NAMES) {
    const location = await locateDataset(dataDir, dataset).catch(() => undefined);
    if (location?.release === undefined) continue;
    summary.releases++;
    try {
      const started = performance.now();
      const { cost } = await verifyRelease(location.dir, { dataset, id: location.release }, (p) => shownPath(dataDir, path.join(location.dir, p)), checked);
      summary.hashed += cost.hashed;
      summary.hashedBytes += cost.hashedBytes;
      // Progress, one line a dataset that took reading (a full-size release takes minutes).
      if (cost.hashed > 0) logger.info("release checked before forking", { dataset, release: location.release, ...cost, ms: Math.round(performance.now() - started) });
    } catch (err) {
      summary.failed++;
      logger.warn("release check failed before forking; the workers check it again", { dataset, release: location.release, reason: withoutDataDir((err as Error).message, dataDir) });
    }
  }
  await saveChecked(checked, logger);
  return summary;
}
