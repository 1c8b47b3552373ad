/**
 * Publishes built runs: each run file is written atomically beside the others, then the index
 * is renamed over the old one (the switch: the newest `keep` runs per model), then the run files
 * the new index no longer lists are deleted.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { SourceInfo } from "../../datasets/artifact/envelope.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { decodeIndex, writeIndex } from "../../datasets/forecast/index-file.ts";
import { writeRunFile } from "../../datasets/forecast/run-file.ts";
import type { ForecastIndex, IndexedRun, RunMeta } from "../../datasets/forecast/types.ts";

export interface RunToPublish {
  meta: RunMeta;
  payload: Uint8Array[];
  sources: SourceInfo[];
}

export function runFileName(model: string, runTime: string): string {
  const t = new Date(runTime);
  const stamp = t.toISOString().slice(0, 13).replace(/[-T]/g, "");
  return `${model}/${stamp}.fcst`;
}

/** The current index, or an empty one when there is none (a corrupt index is an error). */
export async function readCurrentIndex(forecastDir: string): Promise<ForecastIndex> {
  const file = path.join(forecastDir, "index.bin");
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch {
    return { runs: [] };
  }
  return decodeIndex(bytes, file).index;
}

export async function publishRuns(forecastDir: string, runs: readonly RunToPublish[], keep: number, logger: Logger): Promise<ForecastIndex> {
  const current = await readCurrentIndex(forecastDir);
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
  const keptFiles = new Set(kept.map((r) => r.file));
  for (const r of [...current.runs, ...fresh]) {
    if (keptFiles.has(r.file)) continue;
    await fs.rm(path.join(forecastDir, ...r.file.split("/")), { force: true });
    logger.info("old run removed", { model: r.model, runTime: r.runTime, file: r.file });
  }
  return index;
}
