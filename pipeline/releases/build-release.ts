/**
 * Runs a dataset's pipeline step into a new release and publishes it: the way `build-default` and
 * `npm run pipeline -- <step>` build (the nightly runs the same stages with its checks between).
 * The step writes into the hidden assembly directory as if it were the data directory; the
 * release is seeded from the one serving, finished (release.json listing every file), renamed to
 * its id, pointed at, and old releases are pruned. A failure discards the assembly: the release
 * serving stays. The caller holds the dataset's lock (dataset-lock.ts).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { DATASETS, type DatasetName } from "../../datasets/catalog.ts";
import type { Config } from "../../datasets/common/config.ts";
import type { Logger } from "../../datasets/common/log.ts";
import type { ReleaseBuilder, ReleaseManifest, ReleaseSource } from "../../datasets/releases/manifest.ts";
import type { PipelineStep, StepReport } from "../common/step.ts";
import { artifactMetadata } from "./artifact-metadata.ts";
import { beginRelease, currentRelease, discardRelease, finishRelease, publishRelease, pruneReleases } from "./release-dir.ts";
import { seedRelease } from "./seed.ts";

export type BuildReleaseOptions = {
  config: Config;
  dataset: DatasetName;
  step: PipelineStep;
  args: string[];
  builder: ReleaseBuilder;
  sources: ReleaseSource[];
  logger: Logger;
  now?: Date;
};

export interface BuiltRelease {
  manifest: ReleaseManifest;
  previous: string | undefined;
  pruned: string[];
  report: StepReport | void;
}

/** Where the dataset is served from now: its current release, else the unreleased layout if it holds the dataset. */
export async function servingDir(dataDir: string, dataset: DatasetName): Promise<{ dir: string | undefined; release: string | undefined }> {
  const current = await currentRelease(dataDir, dataset);
  if (current) return { dir: current.dir, release: current.id };
  const unreleased = await fs.access(path.join(dataDir, DATASETS[dataset].file)).then(() => true, () => false);
  return { dir: unreleased ? dataDir : undefined, release: undefined };
}

export async function buildRelease(o: BuildReleaseOptions): Promise<BuiltRelease> {
  const { config, dataset } = o;
  const previous = await servingDir(config.dataDir, dataset);
  const assembly = await beginRelease(config.dataDir, dataset, o.now ?? new Date());
  try {
    await seedRelease(dataset, previous.dir, assembly.dir, o.args);
    const report = await o.step.run(o.args, { config: { ...config, dataDir: assembly.dir }, logger: o.logger, cacheDir: path.join(config.dataDir, ".cache") });
    const metadata = await artifactMetadata(DATASETS[dataset], assembly.dir);
    const manifest = await finishRelease(assembly, { builtAt: metadata.builtAt, builder: o.builder, sources: o.sources, counts: metadata.counts });
    await publishRelease(config.dataDir, dataset, manifest.id);
    const pruned = await pruneReleases(config.dataDir, dataset, config.keepReleases);
    o.logger.info("release published", { dataset, release: manifest.id, previous: previous.release, files: manifest.files?.length, pruned });
    return { manifest, previous: previous.release, pruned, report };
  } catch (err) {
    await discardRelease(assembly.dir).catch(() => undefined);
    throw err;
  }
}
