/**
 * The dataset registry: at startup, every dataset of the catalog is opened and checked once;
 * its state (ready, missing, invalid) is what /health reports and what decides which endpoints
 * answer 503. Requests never touch the disk to find out. A dataset is found through its release
 * pointer (`<dataDir>/releases/<name>/current.txt`, datasets/releases/FORMAT.md) when there is
 * one, else at `<dataDir>/<file>`. A release is checked before its loader runs: every file its
 * release.json lists must be there with its size (else it is *pending*: still arriving, retried at
 * the next poll) and its SHA-256 (else it is refused whole). A reload (server/datasets/reload.ts)
 * swaps one dataset for a newly opened and checked release in one assignment: a request takes its
 * datasets once, when it starts, so it finishes on the data it started with. Reasons shown at
 * /health name files relative to the data directory, never by their full path.
 *
 * Checksums are remembered across restarts (datasets/releases/checked-files.ts): a restart over
 * unchanged files hashes none of them. A current release refused at startup falls back to the
 * newest older release that passes its checks (fallback.ts). A fault found at serve time (a
 * block that does not decode, a checksum that differs) is reported here (`reportFault`): the
 * dataset turns *degraded* in /health, and the listener (reload.ts) re-verifies the file.
 */
import path from "node:path";
import type { BuildMetadata } from "../../datasets/artifact/envelope.ts";
import { DATASETS, DATASET_NAMES, type DatasetName } from "../../datasets/catalog.ts";
import type { Config } from "../../datasets/common/config.ts";
import { MissingInputError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { CheckedFiles } from "../../datasets/releases/checked-files.ts";
import { shownPath } from "../../datasets/releases/layout.ts";
import { locateDataset } from "../../datasets/releases/locate.ts";
import { PendingReleaseError } from "../../datasets/releases/verify.ts";
import { openNewestGood } from "./fallback.ts";
import type { DatasetValues, Loaded, LoaderTable } from "./loader.ts";
import { failureOf, openDataset, saveChecked, withoutDataDir, type ServedRelease } from "./open-dataset.ts";

/** `degraded`: serving, but a fault was found at serve time (see `degraded`); the endpoints still answer. */
export type DatasetStatus = "ready" | "degraded" | "missing" | "invalid";

/** Faults found while serving: how many, the last one, and what re-verifying its file found. */
export interface DatasetFaults {
  since: string;
  count: number;
  /** The file of the last fault, relative to the data directory (absent when the reader did not say). */
  file?: string;
  reason: string;
  /** The file's SHA-256 checked again: `running`, `intact` (the bytes on disk are as released), `damaged` (they are not). */
  check: "running" | "intact" | "damaged";
  checkReason?: string;
}

/** How far the background scrub (scrub.ts) is through the release serving. */
export interface ScrubProgress {
  bytes: number;
  checkedBytes: number;
  /** Whole passes over this release's files. */
  passes: number;
  lastPassAt?: string;
}

export interface DatasetState {
  name: DatasetName;
  status: DatasetStatus;
  formatVersion: number;
  builtAt?: string;
  message?: string;
  loadMs?: number;
  counts?: Record<string, number>;
  facts?: Record<string, unknown>;
  /** The release serving (its id), absent for the unreleased layout `<dataDir>/<file>`. */
  release?: string;
  /** The last reload that was refused: the release offered and why; the data above keeps serving. */
  refused?: { release: string; reason: string; at: string };
  /** A release offered whose files are not all there yet: retried at every poll; the data above keeps serving. */
  pending?: { release: string; reason: string; since: string };
  /** Faults found while serving this release (status `degraded`). */
  degraded?: DatasetFaults;
  scrub?: ScrubProgress;
}

/** Called for the first fault of each file of a release (reload.ts re-verifies it). */
export type FaultListener = (dataset: DatasetName, file: string | undefined, error: Error) => void;

type Closer = () => Promise<void> | void;

export class DatasetRegistry<V extends DatasetValues = DatasetValues> {
  private readonly states = new Map<DatasetName, DatasetState>();
  private readonly values = new Map<DatasetName, unknown>();
  private readonly closers: Closer[] = [];
  /** Per dataset: what releases the memory and handles of the value serving now. */
  private readonly datasetClosers = new Map<DatasetName, Closer>();
  /**
   * Counts the changes of what is served (a load, a swap, a failure): caches of answers
   * (server/http/response-cache.ts) keep an entry only within one generation.
   */
  generation = 0;
  /** The checks remembered in the data directory (set by loadDatasets): files hashed once are not hashed again. */
  checked: CheckedFiles | undefined;
  /** The data directory (set by loadDatasets): paths under it are shown relative to it (/health is public). */
  dataDir: string | undefined;
  /** Per dataset: the release serving, with the manifest it was checked against (for faults and the scrub). */
  private readonly served = new Map<DatasetName, ServedRelease>();
  private readonly scrubs = new Map<DatasetName, ScrubProgress>();
  /** Files already reported per dataset (release and path): one re-verification each. */
  private readonly faulted = new Map<DatasetName, Set<string>>();
  onFault: FaultListener | undefined;

  setReady<K extends DatasetName>(name: K, value: V[K], metadata: BuildMetadata, loadMs: number, facts?: Record<string, unknown>, release?: string): void {
    this.values.set(name, value);
    this.generation++;
    const state: DatasetState = {
      name,
      status: "ready",
      formatVersion: metadata.formatVersion,
      builtAt: metadata.builtAt,
      counts: metadata.counts,
      loadMs,
    };
    if (facts) state.facts = facts;
    if (release !== undefined) state.release = release;
    this.states.set(name, state);
  }

  setFailed(name: DatasetName, status: "missing" | "invalid", message: string, release?: string): void {
    this.values.delete(name);
    this.served.delete(name);
    this.scrubs.delete(name);
    this.generation++;
    const pending = this.states.get(name)?.pending;
    this.states.set(name, { name, status, formatVersion: DATASETS[name].formatVersion, message, ...(release !== undefined ? { release } : {}), ...(pending ? { pending } : {}) });
  }

  addCloser(close: Closer): void {
    this.closers.push(close);
  }

  /**
   * Serves `loaded` for `name` from now on (one Map assignment: requests already running keep the
   * value they took). Returns the closer of the value replaced, for the caller to run once the
   * requests that may still hold it are done.
   */
  swap<K extends DatasetName>(name: K, loaded: Loaded<V[K]>, loadMs: number, release: string | undefined, served?: ServedRelease): Closer | undefined {
    const previous = this.datasetClosers.get(name);
    this.setReady(name, loaded.value, loaded.metadata, loadMs, loaded.facts, release);
    if (served) this.served.set(name, served);
    else this.served.delete(name);
    this.scrubs.delete(name);
    this.faulted.delete(name);
    if (loaded.close) this.datasetClosers.set(name, loaded.close);
    else this.datasetClosers.delete(name);
    return previous;
  }

  /** Records a release that failed its checks; the dataset serving is unchanged. */
  refuse(name: DatasetName, release: string, reason: string): void {
    const { pending: _pending, ...state } = this.states.get(name) ?? { name, status: "missing" as const, formatVersion: DATASETS[name].formatVersion };
    this.states.set(name, { ...state, refused: { release, reason, at: new Date().toISOString() } });
  }

  /** Records a release whose files are not all there yet; the dataset serving is unchanged. */
  markPending(name: DatasetName, release: string, reason: string): void {
    const state = this.states.get(name) ?? { name, status: "missing" as const, formatVersion: DATASETS[name].formatVersion };
    const since = state.pending?.release === release ? state.pending.since : new Date().toISOString();
    this.states.set(name, { ...state, pending: { release, reason, since } });
  }

  /** The release id serving `name` (undefined: the unreleased layout or nothing loaded). */
  releaseOf(name: DatasetName): string | undefined {
    return this.states.get(name)?.release;
  }

  /** The release last refused for `name` (not tried again until its pointer moves or SIGHUP). */
  refusedRelease(name: DatasetName): string | undefined {
    return this.states.get(name)?.refused?.release;
  }

  /** The release serving `name` with its checked manifest; undefined for the unreleased layout or nothing. */
  servedRelease(name: DatasetName): ServedRelease | undefined {
    return this.served.get(name);
  }

  setScrub(name: DatasetName, progress: ScrubProgress): void {
    if (this.served.has(name)) this.scrubs.set(name, progress);
  }

  /**
   * A fault found while serving `dataset`: a block of `file` (a path as the reader names it, or
   * undefined) that did not decode or whose checksum differs. Marks the dataset degraded (it
   * keeps serving what it can) and, for the first fault of each file, calls the listener, which
   * logs it and checks the file again. Returns whether the dataset was serving.
   */
  reportFault(dataset: DatasetName, file: string | undefined, error: Error): boolean {
    const state = this.states.get(dataset);
    if (!state || !this.values.has(dataset)) return false;
    const at = new Date().toISOString();
    const reason = this.dataDir !== undefined ? withoutDataDir(error.message, this.dataDir) : error.message;
    const faults: DatasetFaults = state.degraded ? { ...state.degraded, count: state.degraded.count + 1, reason } : { since: at, count: 1, reason, check: "running" };
    if (file !== undefined) faults.file = this.dataDir !== undefined && path.isAbsolute(file) ? shownPath(this.dataDir, file) : file;
    this.states.set(dataset, { ...state, status: "degraded", degraded: faults });
    const seen = this.faulted.get(dataset) ?? new Set<string>();
    this.faulted.set(dataset, seen);
    const key = `${state.release ?? ""} ${file ?? ""}`;
    if (!seen.has(key)) {
      seen.add(key);
      faults.check = "running";
      delete faults.checkReason;
      this.onFault?.(dataset, file, error);
    }
    return true;
  }

  /** What checking a faulty file again found (`running` until then). */
  setFaultCheck(dataset: DatasetName, check: DatasetFaults["check"], reason?: string): void {
    const state = this.states.get(dataset);
    if (!state?.degraded) return;
    this.states.set(dataset, { ...state, degraded: { ...state.degraded, check, ...(reason !== undefined ? { checkReason: reason } : {}) } });
  }

  get<K extends DatasetName>(name: K): V[K] | undefined {
    return this.values.get(name) as V[K] | undefined;
  }

  isReady(name: DatasetName): boolean {
    return this.values.has(name);
  }

  list(): DatasetState[] {
    return DATASET_NAMES.map((n) => {
      const state = this.states.get(n) ?? { name: n, status: "missing" as const, formatVersion: DATASETS[n].formatVersion };
      const scrub = this.scrubs.get(n);
      return scrub ? { ...state, scrub } : state;
    });
  }

  async close(): Promise<void> {
    for (const close of this.closers.splice(0)) await close();
    const perDataset = [...this.datasetClosers.values()];
    this.datasetClosers.clear();
    for (const close of perDataset) await close();
  }
}

/**
 * Opens every dataset of the catalog under `dataDir`. Never throws: failures become states. A
 * current release that is refused (or still arriving) falls back to the newest older release
 * that passes its checks; the state then names the release refused and why.
 */
export async function loadDatasets<V extends DatasetValues>(config: Config, logger: Logger, loaders: LoaderTable<V>): Promise<DatasetRegistry<V>> {
  const registry = new DatasetRegistry<V>();
  const checked = await CheckedFiles.open(config.dataDir);
  if (checked.unreadable !== undefined) logger.warn("the checks remembered are unreadable; every file is hashed again", { reason: withoutDataDir(checked.unreadable, config.dataDir) });
  registry.checked = checked;
  registry.dataDir = config.dataDir;
  for (const name of DATASET_NAMES) {
    try {
      const opened = await openDataset(name, config, logger, loaders, { checked });
      registry.swap(name, opened.loaded, opened.loadMs, opened.release, opened.served);
      logger.info("dataset loaded", { dataset: name, release: opened.release, loadMs: opened.loadMs, check: opened.check, builtAt: opened.loaded.metadata.builtAt, counts: opened.loaded.metadata.counts });
    } catch (err) {
      const failure = failureOf(name, err, config.dataDir);
      const release = await locateDataset(config.dataDir, name).then((l) => l.release, () => undefined);
      const fallback = release !== undefined && !(err instanceof MissingInputError) ? await openNewestGood(name, release, config, logger, loaders, checked) : undefined;
      if (fallback) {
        registry.swap(name, fallback.loaded, fallback.loadMs, fallback.release, fallback.served);
        if (err instanceof PendingReleaseError) registry.markPending(name, err.release, withoutDataDir(err.reason, config.dataDir));
        else registry.refuse(name, release!, failure.message);
        logger.error("current release refused at startup; serving the newest older release that passes its checks", { dataset: name, refused: release, reason: failure.message, serving: fallback.release });
        continue;
      }
      registry.setFailed(name, failure.status, failure.message, release);
      if (err instanceof PendingReleaseError) registry.markPending(name, err.release, withoutDataDir(err.reason, config.dataDir));
      logger[failure.status === "missing" ? "warn" : "error"]("dataset unavailable", { dataset: name, status: failure.status, reason: failure.message });
    }
  }
  await saveChecked(checked, logger);
  return registry;
}
