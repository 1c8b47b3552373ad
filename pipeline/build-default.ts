/**
 * Builds the embedded default: every step that declares an `embeddedDefault`, into a release of
 * its dataset like any other build (datasets/releases/FORMAT.md), under the dataset's lock, so
 * that the replicas' `npm start` sharing one data directory build each dataset once: the others
 * wait, then find it up to date. A dataset is rebuilt when its current release is the embedded
 * default built from other inputs, step code (every source file its module imports, directly or
 * not: pipeline/common/code-fingerprint.ts) or format version (release.json's
 * `builder.fingerprint`, with paths relative to the project: pipeline/releases/build-fingerprint.ts); a release from the nightly, sync or a step run by hand is left alone
 * (unless `force`). `npm start` runs this before serving; tests run it for the datasets they need.
 *
 * Migration: a dataset still in the unreleased layout of older versions (`<dataDir>/<file>`, its
 * stamp in `.default-build/<step>.json`) is moved into a release when its stamp is current, and
 * rebuilt into one otherwise; what killed builds of that layout left is removed.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { DATASETS, type DatasetName, type DatasetSpec } from "../datasets/catalog.ts";
import type { Config } from "../datasets/common/config.ts";
import type { Logger } from "../datasets/common/log.ts";
import { describeSourceFile } from "../datasets/artifact/source-info.ts";
import type { ReleaseSource } from "../datasets/releases/manifest.ts";
import type { PipelineStep } from "./common/step.ts";
import { codeFingerprint } from "./common/code-fingerprint.ts";
import { STEP_MODULES, STEPS } from "./steps.ts";
import { PROJECT_ROOT } from "../datasets/common/paths.ts";
import { buildRelease } from "./releases/build-release.ts";
import { buildFingerprint } from "./releases/build-fingerprint.ts";
import { lockDataset } from "./releases/dataset-lock.ts";
import { artifactMetadata } from "./releases/artifact-metadata.ts";
import { beginRelease, currentRelease, finishRelease, publishRelease } from "./releases/release-dir.ts";

/** Where older versions kept one stamp per step (read only to migrate their data directories). */
const STAMP_DIR = ".default-build";

function fingerprintOf(step: PipelineStep, spec: DatasetSpec, inputs: readonly ReleaseSource[], args: string[]): string {
  const module = STEP_MODULES[step.name];
  // A step without a known module (a test's stand-in) is fingerprinted by its version alone.
  const code = module === undefined ? "" : codeFingerprint(path.join(PROJECT_ROOT, module));
  return buildFingerprint({ step: step.name, codeVersion: step.codeVersion, code, magic: spec.magic, formatVersion: spec.formatVersion, args, inputs, root: PROJECT_ROOT });
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(() => true, () => false);
}

/** Leftovers of killed builds of the unreleased layout: `<dataset>/.build-*`, `<dataset>.build-*`, `<dataset>.old-*`. */
async function removeUnreleasedLeftovers(dataDir: string, dataset: DatasetName, logger: Logger): Promise<void> {
  const removed: string[] = [];
  for (const [dir, pattern] of [[path.join(dataDir, dataset), /^\.build-/], [dataDir, new RegExp(`^${dataset}\\.(build|old)-`)]] as const) {
    for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
      if (!pattern.test(name)) continue;
      await fs.rm(path.join(dir, name), { recursive: true, force: true });
      removed.push(path.relative(dataDir, path.join(dir, name)));
    }
  }
  if (removed.length > 0) logger.warn("removed what a killed build left", { dataset, removed });
}

/**
 * Moves `<dataDir>/<dataset>/` of the unreleased layout into a release when its stamp says it is
 * the current embedded default. Returns whether it did.
 */
async function adoptUnreleased(config: Config, spec: DatasetSpec, step: PipelineStep, fingerprint: string, sources: ReleaseSource[], logger: Logger): Promise<boolean> {
  const stampFile = path.join(config.dataDir, STAMP_DIR, `${step.name}.json`);
  const stamp = await fs.readFile(stampFile, "utf8").then((t) => JSON.parse(t) as { fingerprint?: string }, () => undefined);
  if (stamp?.fingerprint !== fingerprint || !(await exists(path.join(config.dataDir, spec.file)))) return false;
  const assembly = await beginRelease(config.dataDir, spec.name, new Date());
  await fs.rename(path.join(config.dataDir, spec.name), path.join(assembly.dir, spec.name));
  const metadata = await artifactMetadata(spec, assembly.dir);
  const manifest = await finishRelease(assembly, { builtAt: metadata.builtAt, builder: { kind: "default", fingerprint }, sources, counts: metadata.counts });
  await publishRelease(config.dataDir, spec.name, manifest.id);
  await fs.rm(stampFile, { force: true });
  await fs.rmdir(path.dirname(stampFile)).catch(() => undefined); // once empty
  logger.info("moved the unreleased layout into a release", { dataset: spec.name, release: manifest.id });
  return true;
}

export interface BuildDefaultOptions {
  /** Only these steps (by name); default all with an embedded default. */
  only?: readonly string[];
  /** Rebuild even when fresh, and over a release built otherwise. */
  force?: boolean;
}

/** Returns the names of the steps it ran. Throws on the first failure (earlier datasets stay published). */
export async function buildDefault(config: Config, logger: Logger, options: BuildDefaultOptions = {}, steps: readonly PipelineStep[] = STEPS): Promise<string[]> {
  const selected = steps.filter((s) => s.embeddedDefault && (!options.only || options.only.includes(s.name)));
  const ran: string[] = [];
  for (const [i, step] of selected.entries()) {
    const spec = Object.values(DATASETS).find((d) => d.step === step.name);
    if (!spec) throw new Error(`step ${step.name} has an embedded default but builds no dataset of the catalog`);
    const log = logger.child({ step: step.name });
    const ctx = { config, logger: log };
    const inputs = step.embeddedDefault!.inputs(ctx);
    const args = step.embeddedDefault!.args(ctx);
    const lock = await lockDataset(config.dataDir, spec.name, log);
    try {
      await removeUnreleasedLeftovers(config.dataDir, spec.name, log);
      const sources = await Promise.all(inputs.map(async (f): Promise<ReleaseSource> => {
        const info = await describeSourceFile(f);
        return { url: info.location, size: info.bytes ?? 0, sha256: info.sha256 ?? "" };
      }));
      const fingerprint = fingerprintOf(step, spec, sources, args);
      const current = await currentRelease(config.dataDir, spec.name);
      const builder = current?.manifest?.builder;
      if (!options.force && current && builder?.kind === "default" && builder.fingerprint === fingerprint) {
        log.info("up to date", { stepIndex: i + 1, steps: selected.length, release: current.id });
        continue;
      }
      if (!options.force && current && builder?.kind !== "default") {
        log.info("serving a release not built from the embedded default; left alone", { release: current.id, builder: builder?.kind ?? "unknown" });
        continue;
      }
      if (!current && !options.force && (await adoptUnreleased(config, spec, step, fingerprint, sources, log))) continue;
      const started = performance.now();
      log.info("building embedded default", { stepIndex: i + 1, steps: selected.length, args });
      const built = await buildRelease({ config, dataset: spec.name, step, args, builder: { kind: "default", fingerprint }, sources, logger: log });
      log.info("built", { release: built.manifest.id, elapsedS: Math.round((performance.now() - started) / 100) / 10 });
      // The unreleased layout of older versions, out of date (else it was adopted), is replaced.
      if (!current) {
        await fs.rm(path.join(config.dataDir, spec.name), { recursive: true, force: true });
        await fs.rm(path.join(config.dataDir, STAMP_DIR, `${step.name}.json`), { force: true });
      }
      await fs.rmdir(path.join(config.dataDir, STAMP_DIR)).catch(() => undefined); // once empty
      ran.push(step.name);
    } finally {
      await lock.release();
    }
  }
  return ran;
}
