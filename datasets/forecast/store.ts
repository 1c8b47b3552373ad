/**
 * The whole forecast store of a data directory: the index and every run it lists, opened once
 * (each run's header and tile table read and checked; its series read where they lie).
 * Used by the server loader; the pipeline reads it to know which runs exist.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { BuildMetadata } from "../artifact/envelope.ts";
import { MissingInputError } from "../common/errors.ts";
import { decodeIndex } from "./index-file.ts";
import { ForecastRun, type PointSeries } from "./run-reader.ts";
import type { ForecastIndex } from "./types.ts";

export class ForecastStore {
  /** Runs per model, newest first. */
  readonly byModel = new Map<string, ForecastRun[]>();

  constructor(
    readonly index: ForecastIndex,
    readonly metadata: BuildMetadata,
    readonly runs: ForecastRun[],
  ) {
    for (const run of runs) {
      const list = this.byModel.get(run.meta.model) ?? [];
      list.push(run);
      this.byModel.set(run.meta.model, list);
    }
    for (const list of this.byModel.values()) list.sort((a, b) => b.meta.runTime.localeCompare(a.meta.runTime));
  }

  /** The newest run of a model, or undefined. */
  latest(model: string): ForecastRun | undefined {
    return this.byModel.get(model)?.[0];
  }

  models(): string[] {
    return [...this.byModel.keys()].sort();
  }

  /** Point series from the newest run of `model`; undefined when the model is unknown or the point outside its grid. */
  pointSeries(model: string, lat: number, lon: number, variables?: readonly string[]): PointSeries | undefined {
    return this.latest(model)?.pointSeries(lat, lon, variables);
  }

  close(): void {
    for (const run of this.runs) run.close();
  }
}

/** Opens `<dir>/index.bin` and every run it lists. Throws on a missing or invalid file. */
export async function openForecastStore(dir: string): Promise<ForecastStore> {
  const indexFile = path.join(dir, "index.bin");
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(indexFile);
  } catch {
    throw new MissingInputError(indexFile, "forecast index");
  }
  const { index, metadata } = decodeIndex(bytes, indexFile);
  const runs: ForecastRun[] = [];
  try {
    for (const entry of index.runs) runs.push(await ForecastRun.open(path.join(dir, ...entry.file.split("/"))));
  } catch (err) {
    for (const run of runs) run.close();
    throw err;
  }
  return new ForecastStore(index, metadata, runs);
}
