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
 */
import path from "node:path";
import type { BuildMetadata } from "../../datasets/artifact/envelope.ts";
import { DATASETS, DATASET_NAMES, type DatasetName } from "../../datasets/catalog.ts";
import type { Config } from "../../datasets/common/config.ts";
import { MissingInputError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { HashCache } from "../../datasets/releases/hash-files.ts";
import { shownPath } from "../../datasets/releases/layout.ts";
import { locateDataset } from "../../datasets/releases/locate.ts";
import { PendingReleaseError, verifyRelease } from "../../datasets/releases/verify.ts";
import type { DatasetLoader, Loaded } from "./loader.ts";

export type DatasetStatus = "ready" | "missing" | "invalid";

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
}

type Closer = () => Promise<void> | void;

/** The in-memory value of every dataset, by name: what the loader table gives (server/loaders.ts). */
export type DatasetValues = { [K in DatasetName]: unknown };

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
  /** Checksums of the release files this process checked already (hard-linked files are hashed once). */
  readonly hashes = new HashCache();

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
  swap<K extends DatasetName>(name: K, loaded: Loaded<V[K]>, loadMs: number, release: string | undefined): Closer | undefined {
    const previous = this.datasetClosers.get(name);
    this.setReady(name, loaded.value, loaded.metadata, loadMs, loaded.facts, release);
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

  get<K extends DatasetName>(name: K): V[K] | undefined {
    return this.values.get(name) as V[K] | undefined;
  }

  isReady(name: DatasetName): boolean {
    return this.values.has(name);
  }

  list(): DatasetState[] {
    return DATASET_NAMES.map((n) => this.states.get(n) ?? { name: n, status: "missing" as const, formatVersion: DATASETS[n].formatVersion });
  }

  async close(): Promise<void> {
    for (const close of this.closers.splice(0)) await close();
    const perDataset = [...this.datasetClosers.values()];
    this.datasetClosers.clear();
    for (const close of perDataset) await close();
  }
}

export type LoaderTable<V extends DatasetValues = DatasetValues> = { [K in DatasetName]: DatasetLoader<V[K]> };

export interface OpenedDataset<V extends DatasetValues, K extends DatasetName> {
  loaded: Loaded<V[K]>;
  release: string | undefined;
  loadMs: number;
}

/**
 * Opens one dataset where its release pointer (or the data directory) says: checks the release's
 * files against its release.json (PendingReleaseError, ReleaseFileError), then runs the loader's
 * checks. Throws what they throw.
 */
export async function openDataset<V extends DatasetValues, K extends DatasetName>(name: K, config: Config, logger: Logger, loaders: LoaderTable<V>, hashes?: HashCache): Promise<OpenedDataset<V, K>> {
  const spec = DATASETS[name];
  const location = await locateDataset(config.dataDir, name);
  const started = performance.now();
  if (location.release !== undefined) {
    await verifyRelease(location.dir, { dataset: name, id: location.release }, (p) => shownPath(config.dataDir, path.join(location.dir, p)), hashes);
  }
  const loaded = await (loaders[name] as DatasetLoader<V[K]>)({ file: path.join(location.dir, spec.file), dataDir: location.dir, spec, config, logger: logger.child({ dataset: name }) });
  return { loaded, release: location.release, loadMs: Math.round(performance.now() - started) };
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

/** Opens every dataset of the catalog under `dataDir`. Never throws: failures become states. */
export async function loadDatasets<V extends DatasetValues>(config: Config, logger: Logger, loaders: LoaderTable<V>): Promise<DatasetRegistry<V>> {
  const registry = new DatasetRegistry<V>();
  for (const name of DATASET_NAMES) {
    try {
      const opened = await openDataset(name, config, logger, loaders, registry.hashes);
      registry.swap(name, opened.loaded, opened.loadMs, opened.release);
      logger.info("dataset loaded", { dataset: name, release: opened.release, loadMs: opened.loadMs, builtAt: opened.loaded.metadata.builtAt, counts: opened.loaded.metadata.counts });
    } catch (err) {
      const failure = failureOf(name, err, config.dataDir);
      const release = await locateDataset(config.dataDir, name).then((l) => l.release, () => undefined);
      registry.setFailed(name, failure.status, failure.message, release);
      if (err instanceof PendingReleaseError) registry.markPending(name, err.release, withoutDataDir(err.reason, config.dataDir));
      logger[failure.status === "missing" ? "warn" : "error"]("dataset unavailable", { dataset: name, status: failure.status, reason: failure.message });
    }
  }
  return registry;
}
