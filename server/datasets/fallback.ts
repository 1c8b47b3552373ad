/**
 * When the release a dataset's pointer names cannot serve (refused by its checks, or its files
 * not all there yet), the newest older release of that dataset that passes the same checks
 * serves instead: a restart after a refused switch keeps serving what served before it, instead
 * of leaving the dataset unavailable until someone moves the pointer back by hand. Only releases
 * older than the refused one are tried (an operator who pointed back at an older release did so
 * on purpose), newest first.
 */
import { promises as fs } from "node:fs";
import type { DatasetName } from "../../datasets/catalog.ts";
import type { Config } from "../../datasets/common/config.ts";
import type { Logger } from "../../datasets/common/log.ts";
import type { CheckedFiles } from "../../datasets/releases/checked-files.ts";
import { RELEASE_ID, releasesRoot } from "../../datasets/releases/layout.ts";
import { failureOf, openDataset, type OpenedDataset } from "./open-dataset.ts";
import type { DatasetValues, LoaderTable } from "./loader.ts";

/** The ids of the releases of `dataset` older than `than`, newest first. */
export async function olderReleases(dataDir: string, dataset: DatasetName, than: string): Promise<string[]> {
  const names = await fs.readdir(releasesRoot(dataDir, dataset)).catch(() => [] as string[]);
  return names.filter((n) => RELEASE_ID.test(n) && n < than).sort().reverse();
}

/** The newest release older than `refused` that opens and passes its checks; undefined when none does. */
export async function openNewestGood<V extends DatasetValues, K extends DatasetName>(
  name: K,
  refused: string,
  config: Config,
  logger: Logger,
  loaders: LoaderTable<V>,
  checked: CheckedFiles | undefined,
): Promise<OpenedDataset<V, K> | undefined> {
  for (const release of await olderReleases(config.dataDir, name, refused)) {
    try {
      return await openDataset(name, config, logger, loaders, { checked, release });
    } catch (err) {
      logger.warn("older release refused too", { dataset: name, release, reason: failureOf(name, err, config.dataDir).message });
    }
  }
  return undefined;
}
