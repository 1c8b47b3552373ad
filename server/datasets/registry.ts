/**
 * The dataset registry: at startup, every dataset of the catalog is opened and checked once;
 * its state (ready, missing, invalid) is what /health reports and what decides which endpoints
 * answer 503. Requests never touch the disk to find out. A dataset is found through its release
 * pointer (`<dataDir>/releases/<name>/current`, datasets/releases/FORMAT.md) when there is one,
 * else at `<dataDir>/<file>`. A reload (server/datasets/reload.ts) swaps one dataset for a newly
 * opened and checked release in one assignment: a request takes its datasets once, when it
 * starts, so it finishes on the data it started with.
 */
import path from "node:path";
import type { BuildMetadata } from "../../datasets/artifact/envelope.ts";
import { DATASETS, DATASET_NAMES, type DatasetName } from "../../datasets/catalog.ts";
import type { Config } from "../../datasets/common/config.ts";
import { MissingInputError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { locateDataset } from "../../datasets/releases/layout.ts";
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
    this.states.set(name, { name, status, formatVersion: DATASETS[name].formatVersion, message, ...(release !== undefined ? { release } : {}) });
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
    const state = this.states.get(name) ?? { name, status: "missing" as const, formatVersion: DATASETS[name].formatVersion };
    this.states.set(name, { ...state, refused: { release, reason, at: new Date().toISOString() } });
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
 * Opens one dataset where its release pointer (or the data directory) says, running the
 * loader's checks. Throws what the loader throws.
 */
export async function openDataset<V extends DatasetValues, K extends DatasetName>(name: K, config: Config, logger: Logger, loaders: LoaderTable<V>): Promise<OpenedDataset<V, K>> {
  const spec = DATASETS[name];
  const location = await locateDataset(config.dataDir, name);
  const started = performance.now();
  const loaded = await (loaders[name] as DatasetLoader<V[K]>)({ file: path.join(location.dir, spec.file), dataDir: location.dir, spec, config, logger: logger.child({ dataset: name }) });
  return { loaded, release: location.release, loadMs: Math.round(performance.now() - started) };
}

/** The message of a dataset that could not be opened, and whether it is missing or invalid. */
export function failureOf(name: DatasetName, err: unknown): { status: "missing" | "invalid"; message: string } {
  const spec = DATASETS[name];
  const missing = err instanceof MissingInputError;
  return {
    status: missing ? "missing" : "invalid",
    message: missing ? `not built: ${spec.file} is missing (run: npm run pipeline -- ${spec.step})` : (err as Error).message,
  };
}

/** Opens every dataset of the catalog under `dataDir`. Never throws: failures become states. */
export async function loadDatasets<V extends DatasetValues>(config: Config, logger: Logger, loaders: LoaderTable<V>): Promise<DatasetRegistry<V>> {
  const registry = new DatasetRegistry<V>();
  for (const name of DATASET_NAMES) {
    try {
      const opened = await openDataset(name, config, logger, loaders);
      registry.swap(name, opened.loaded, opened.loadMs, opened.release);
      logger.info("dataset loaded", { dataset: name, release: opened.release, loadMs: opened.loadMs, builtAt: opened.loaded.metadata.builtAt, counts: opened.loaded.metadata.counts });
    } catch (err) {
      const failure = failureOf(name, err);
      registry.setFailed(name, failure.status, failure.message, (await locateDataset(config.dataDir, name)).release);
      logger[failure.status === "missing" ? "warn" : "error"]("dataset unavailable", { dataset: name, status: failure.status, reason: failure.message });
    }
  }
  return registry;
}
