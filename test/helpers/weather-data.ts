/**
 * Data directories for the weather tests, made from the embedded default built once into
 * .cache/test-data: a chosen set of datasets (symbolic links to their releases, in the unreleased
 * layout), and optionally a forecast store holding only some models' runs (their run files
 * linked, a new index written).
 */
import { mkdir, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { decodeIndex, writeIndex } from "../../datasets/forecast/index-file.ts";
import { defaultDatasetDir } from "./default-data.ts";

export const ALL_DATASETS = ["places", "admin", "elevation", "stations", "forecast"] as const;
type Name = (typeof ALL_DATASETS)[number];

export interface WeatherDataDir {
  dir: string;
  remove(): Promise<void>;
}

export async function weatherDataDir(options: { datasets: readonly Name[]; forecastModels?: readonly string[] }): Promise<WeatherDataDir> {
  const dir = await mkdtemp(path.join(tmpdir(), "weather-data-"));
  for (const name of options.datasets) {
    if (name === "forecast" && options.forecastModels) continue;
    await symlink(path.join(await defaultDatasetDir(name), name), path.join(dir, name), "dir");
  }
  if (options.datasets.includes("forecast") && options.forecastModels) {
    const source = await defaultDatasetDir("forecast");
    const indexFile = path.join(source, "forecast", "index.bin");
    const { index, metadata } = decodeIndex(await readFile(indexFile), indexFile);
    const runs = index.runs.filter((r) => options.forecastModels!.includes(r.model));
    await mkdir(path.join(dir, "forecast"));
    for (const model of new Set(runs.map((r) => r.model))) await symlink(path.join(source, "forecast", model), path.join(dir, "forecast", model), "dir");
    await writeIndex(path.join(dir, "forecast", "index.bin"), { runs }, metadata.sources);
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
