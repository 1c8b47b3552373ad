/**
 * The dataset registry: at startup, every dataset of the catalog is opened and checked once;
 * its state (ready, missing, invalid) is what /health reports and what decides which endpoints
 * answer 503. Requests never touch the disk to find out.
 */
import path from "node:path";
import type { BuildMetadata } from "../../datasets/artifact/envelope.ts";
import { DATASETS, DATASET_NAMES, type DatasetName } from "../../datasets/catalog.ts";
import type { Config } from "../../datasets/common/config.ts";
import { MissingInputError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";
import type { DatasetLoader } from "./loader.ts";
import { LOADERS, type LoadedDatasets } from "./loaders.ts";

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
}

export class DatasetRegistry {
  private readonly states = new Map<DatasetName, DatasetState>();
  private readonly values = new Map<DatasetName, unknown>();
  private readonly closers: Array<() => Promise<void> | void> = [];

  setReady<K extends DatasetName>(name: K, value: LoadedDatasets[K], metadata: BuildMetadata, loadMs: number, facts?: Record<string, unknown>): void {
    this.values.set(name, value);
    const state: DatasetState = {
      name,
      status: "ready",
      formatVersion: metadata.formatVersion,
      builtAt: metadata.builtAt,
      counts: metadata.counts,
      loadMs,
    };
    if (facts) state.facts = facts;
    this.states.set(name, state);
  }

  setFailed(name: DatasetName, status: "missing" | "invalid", message: string): void {
    this.values.delete(name);
    this.states.set(name, { name, status, formatVersion: DATASETS[name].formatVersion, message });
  }

  addCloser(close: () => Promise<void> | void): void {
    this.closers.push(close);
  }

  get<K extends DatasetName>(name: K): LoadedDatasets[K] | undefined {
    return this.values.get(name) as LoadedDatasets[K] | undefined;
  }

  isReady(name: DatasetName): boolean {
    return this.values.has(name);
  }

  list(): DatasetState[] {
    return DATASET_NAMES.map((n) => this.states.get(n) ?? { name: n, status: "missing" as const, formatVersion: DATASETS[n].formatVersion });
  }

  async close(): Promise<void> {
    for (const close of this.closers.splice(0)) await close();
  }
}

export type LoaderTable = { [K in DatasetName]: DatasetLoader<LoadedDatasets[K]> };

/** Opens every dataset of the catalog under `dataDir`. Never throws: failures become states. */
export async function loadDatasets(
  config: Config,
  logger: Logger,
  loaders: LoaderTable = LOADERS as LoaderTable,
): Promise<DatasetRegistry> {
  const registry = new DatasetRegistry();
  for (const name of DATASET_NAMES) {
    const spec = DATASETS[name];
    const file = path.join(config.dataDir, spec.file);
    const started = performance.now();
    try {
      const loaded = await loaders[name]({ file, dataDir: config.dataDir, spec, config, logger: logger.child({ dataset: name }) });
      const loadMs = Math.round(performance.now() - started);
      registry.setReady(name, loaded.value as never, loaded.metadata, loadMs, loaded.facts);
      if (loaded.close) registry.addCloser(loaded.close);
      logger.info("dataset loaded", { dataset: name, loadMs, builtAt: loaded.metadata.builtAt, counts: loaded.metadata.counts });
    } catch (err) {
      const missing = err instanceof MissingInputError;
      const message = missing ? `not built: ${spec.file} is missing (run: npm run pipeline -- ${spec.step})` : (err as Error).message;
      registry.setFailed(name, missing ? "missing" : "invalid", message);
      logger[missing ? "warn" : "error"]("dataset unavailable", { dataset: name, status: missing ? "missing" : "invalid", reason: message });
    }
  }
  return registry;
}
