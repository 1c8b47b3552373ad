/**
 * How the server opens one dataset at startup. A loader reads and checks the artifact (magic,
 * version, checksum, then its own structure) and returns the in-memory form handlers query.
 * It throws (DataFormatError, MissingInputError, ...) when the artifact is missing or invalid;
 * the registry then marks that dataset unavailable and only its endpoints answer 503.
 */
import type { BuildMetadata } from "../../datasets/artifact/envelope.ts";
import type { DatasetName, DatasetSpec } from "../../datasets/catalog.ts";
import type { Config } from "../../datasets/common/config.ts";
import type { Logger } from "../../datasets/common/log.ts";

export interface LoadContext {
  /** Absolute path of the dataset's identifying file (`spec.file` inside the data directory). */
  file: string;
  dataDir: string;
  spec: DatasetSpec;
  config: Config;
  logger: Logger;
}

export interface Loaded<T> {
  value: T;
  metadata: BuildMetadata;
  /** Extra facts for /health (counts, grids, ...). */
  facts?: Record<string, unknown>;
  /** Releases native handles (DuckDB) at shutdown. */
  close?: () => Promise<void> | void;
}

export type DatasetLoader<T> = (ctx: LoadContext) => Promise<Loaded<T>>;

/** The in-memory value of every dataset, by name: what the loader table gives (server/loaders.ts). */
export type DatasetValues = { [K in DatasetName]: unknown };

/** A loader for every dataset of the catalog. */
export type LoaderTable<V extends DatasetValues = DatasetValues> = { [K in DatasetName]: DatasetLoader<V[K]> };
