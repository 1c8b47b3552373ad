/**
 * Builds the embedded-default datasets a test needs, once, into a data directory shared by all
 * test files. Each dataset is a release (datasets/releases/FORMAT.md); vitest runs files in
 * parallel workers, and build-default's per-dataset lock makes a second builder wait, then find
 * the release up to date. A dataset already built from the same inputs is not rebuilt.
 */
import path from "node:path";
import { DATASETS, type DatasetName } from "../../datasets/catalog.ts";
import { readConfig } from "../../datasets/common/config.ts";
import { createLogger } from "../../datasets/common/log.ts";
import { PROJECT_ROOT } from "../../datasets/common/paths.ts";
import { locateDataset } from "../../datasets/releases/locate.ts";
import { buildDefault } from "../../pipeline/build-default.ts";

export const TEST_DATA_DIR = path.join(PROJECT_ROOT, ".cache", "test-data");

/** Builds (if stale) the embedded default of these pipeline steps; returns the data directory. */
export async function ensureDefaultData(steps: readonly string[]): Promise<string> {
  const config = readConfig({ GEODATA_DATA_DIR: TEST_DATA_DIR, GEODATA_LOG_LEVEL: "warn" });
  await buildDefault(config, createLogger({ minLevel: "warn" }), { only: steps });
  return TEST_DATA_DIR;
}

/** Builds (if stale) one dataset of the embedded default; returns its release directory, laid out like a data directory. */
export async function defaultDatasetDir(dataset: DatasetName): Promise<string> {
  const dataDir = await ensureDefaultData([DATASETS[dataset].step]);
  return (await locateDataset(dataDir, dataset)).dir;
}
