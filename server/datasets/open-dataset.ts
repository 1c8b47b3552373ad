/**
 * Opening one dataset: its release found (the pointer, or a release named), checked against its
 * release.json (files remembered at their version are not hashed again), then its loader run.
 * Used at startup (registry.ts), for a fallback (fallback.ts) and for a reload (reload.ts).
 */
import path from "node:path";
import { DATASETS, type DatasetName } from "../../datasets/catalog.ts";
import type { Config } from "../../datasets/common/config.ts";
import { MissingInputError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";
import type { CheckedFiles } from "../../datasets/releases/checked-files.ts";
import { releaseDirOf, shownPath } from "../../datasets/releases/layout.ts";
import { locateDataset } from "../../datasets/releases/locate.ts";
import type { ReleaseManifest } from "../../datasets/releases/manifest.ts";
import { PendingReleaseError, verifyRelease, type CheckCost } from "../../datasets/releases/verify.ts";
import type { DatasetLoader, DatasetValues, Loaded, LoaderTable } from "./loader.ts";

/** The release a dataset is served from, as it was checked. */
export interface ServedRelease {
  release: string;
  dir: string;
  manifest: ReleaseManifest;
}

export interface OpenedDataset<V extends DatasetValues, K extends DatasetName> {
  loaded: Loaded<V[K]>;
  release: string | undefined;
  /** The release with its checked manifest (undefined for the unreleased layout). */
  served: ServedRelease | undefined;
  /** What checking its files read (files remembered at their version are not hashed). */
  check: CheckCost | undefined;
  loadMs: number;
}

export type OpenOptions = {
  /** The checks remembered: files hashed before at their version are not read again. */
  checked?: CheckedFiles | undefined;
  /** This release instead of the one the pointer names (a fallback). */
  release?: string;
};

/**
 * Opens one dataset where its release pointer (or the data directory) says, or release
 * `options.release`: checks the release's files against its release.json (PendingReleaseError,
 * ReleaseFileError), then runs the loader's checks. Throws what they throw.
 */
export async function openDataset<V extends DatasetValues, K extends DatasetName>(name: K, config: Config, logger: Logger, loaders: LoaderTable<V>, options: OpenOptions = {}): Promise<OpenedDataset<V, K>> {
  const spec = DATASETS[name];
  const location = options.release !== undefined ? { dir: releaseDirOf(config.dataDir, name, options.release), release: options.release } : await locateDataset(config.dataDir, name);
  const started = performance.now();
  let served: ServedRelease | undefined;
  let check: CheckCost | undefined;
  if (location.release !== undefined) {
    const { manifest, cost } = await verifyRelease(location.dir, { dataset: name, id: location.release }, (p) => shownPath(config.dataDir, path.join(location.dir, p)), options.checked);
    served = { release: location.release, dir: location.dir, manifest };
    check = cost;
  }
  const loaded = await (loaders[name] as DatasetLoader<V[K]>)({ file: path.join(location.dir, spec.file), dataDir: location.dir, spec, config, logger: logger.child({ dataset: name }) });
  return { loaded, release: location.release, served, check, loadMs: Math.round(performance.now() - started) };
}

/** Saves the checks remembered, if any were added; a data directory the server may not write is logged, not fatal. */
export async function saveChecked(checked: CheckedFiles | undefined, logger: Logger): Promise<void> {
  if (!checked?.dirty) return;
  await checked.save().catch((err: unknown) => logger.warn("could not save the checks remembered; the next start hashes these files again", { file: shownPath(checked.dataDir, checked.file), reason: (err as Error).message }));
}

/** `message` with every path inside the data directory made relative to it (/health is public). */
export function withoutDataDir(message: string, dataDir: string): string {
  const root = dataDir.endsWith(path.sep) ? dataDir.slice(0, -1) : dataDir;
  return message.split(root + path.sep).join("").split(root).join(".");
}

/** The message of a dataset that could not be opened (no full paths), and whether it is missing or invalid. */
export function failureOf(name: DatasetName, err: unknown, dataDir: string): { status: "missing" | "invalid"; message: string } {
  const spec = DATASETS[name];
  if (err instanceof MissingInputError) return { status: "missing", message: `not built: ${spec.file} is missing (run: npm run pipeline -- ${spec.step})` };
  if (err instanceof PendingReleaseError) return { status: "missing", message: withoutDataDir(err.message, dataDir) };
  return { status: "invalid", message: withoutDataDir((err as Error).message, dataDir) };
}
