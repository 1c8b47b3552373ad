/**
 * Publishes built runs: each run file is written atomically beside the others, then the index
 * is renamed over the old one (the switch: the newest `keep` runs per model), then the run files
 * the new index no longer lists are deleted.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { SourceInfo } from "../../datasets/artifact/envelope.ts";
import { DataFormatError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { decodeIndex, writeIndex } from "../../datasets/forecast/index-file.ts";
import { writeRunFile } from "../../datasets/forecast/run-file.ts";
import type { RunPayload } from "../../datasets/forecast/run-writer.ts";
import type { ForecastIndex, IndexedRun, RunMeta } from "../../datasets/forecast/types.ts";
import { processAlive } from "../common/process-alive.ts";

export interface RunToPublish {
  meta: RunMeta;
  payload: RunPayload;
  sources: SourceInfo[];
}

export function runFileName(model: string, runTime: string): string {
  const t = new Date(runTime);
  const stamp = t.toISOString().slice(0, 13).replace(/[-T]/g, "");
  return `${model}/${stamp}.fcst`;
}

/**
 * The current index, or an empty one when there is none. An index this code cannot read (an older
 * format version, a corrupt file) is replaced: its runs are rebuilt on demand and its files swept.
 */
export async function readCurrentIndex(forecastDir: string, logger?: Logger): Promise<ForecastIndex> {
  const file = path.join(forecastDir, "index.bin");
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch {
    return { runs: [] };
  }
  try {
    return decodeIndex(bytes, file).index;
  } catch (err) {
    if (!(err instanceof DataFormatError)) throw err;
    logger?.warn("previous forecast index unreadable, it will be replaced", { file, reason: err.message });
    return { runs: [] };
  }
}

/**
 * Deletes run files the index does not list (older runs, files of an older format, leftovers),
 * and temporary run files (`.fcst.tmp-<pid>-...`) of builds whose process is gone.
 */
async function sweep(forecastDir: string, kept: Set<string>, logger: Logger): Promise<void> {
  for (const entry of await fs.readdir(forecastDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    for (const name of await fs.readdir(path.join(forecastDir, entry.name))) {
      const rel = `${entry.name}/${name}`;
      const tmp = /\.fcst\.tmp-(\d+)-/.exec(name);
      if (tmp && !processAlive(Number(tmp[1]))) {
        await fs.rm(path.join(forecastDir, entry.name, name), { force: true });
        logger.info("temporary file of a dead build removed", { file: rel });
        continue;
      }
      if (!name.endsWith(".fcst") || kept.has(rel)) continue;
      await fs.rm(path.join(forecastDir, entry.name, name), { force: true });
      logger.info("old run removed", { file: rel });
    }
  }
}

/** `onlyModels`: the index lists only these models' runs (the others' files are swept). */
export async function publishRuns(forecastDir: string, runs: readonly RunToPublish[], keep: number, logger: Logger, onlyModels?: ReadonlySet<string>): Promise<ForecastIndex> {
  const current = await readCurrentIndex(forecastDir, logger);
  if (onlyModels) current.runs = current.runs.filter((r) => onlyModels.has(r.model));
  const fresh: IndexedRun[] = [];
  for (const run of runs) {
    const file = runFileName(run.meta.model, run.meta.runTime);
    const abs = path.join(forecastDir, ...file.split("/"));
    await writeRunFile(abs, run.meta, run.payload, run.sources);
    fresh.push({
      model: run.meta.model,
      runTime: run.meta.runTime,
      file,
      steps: run.meta.steps.length,
      variables: run.meta.variables.map((v) => v.name),
      bytes: (await fs.stat(abs)).size,
    });
  }
  const replaced = new Set(fresh.map((r) => r.file));
  const all = [...current.runs.filter((r) => !replaced.has(r.file)), ...fresh];
  const kept: IndexedRun[] = [];
  for (const model of [...new Set(all.map((r) => r.model))].sort()) {
    const list = all.filter((r) => r.model === model).sort((a, b) => b.runTime.localeCompare(a.runTime));
    kept.push(...list.slice(0, keep));
  }
  const index: ForecastIndex = { runs: kept };
  const sources = runs.flatMap((r) => r.sources);
  await writeIndex(path.join(forecastDir, "index.bin"), index, sources);
  await sweep(forecastDir, new Set(kept.map((r) => r.file)), logger);
  return index;
}
