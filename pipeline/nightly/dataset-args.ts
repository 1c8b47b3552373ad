/**
 * How the nightly turns a dataset's fetched sources into the options of its pipeline step (the
 * same step `npm run pipeline -- <step>` runs), and what a release directory must hold before the
 * step runs: the stations step merges into the previous release's histories (--merge), the
 * forecast step adds the new run beside the runs it keeps.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DATASETS, type DatasetName } from "../../datasets/catalog.ts";
import { ConfigError } from "../../datasets/common/errors.ts";
import type { DatasetPlan } from "./config.ts";
import type { FetchedSource } from "./download.ts";
import { mirrorUrl, type MirroredLocation } from "./mirror.ts";

/** Sources each dataset's configuration may name; `required` ones must be there. */
export const SOURCE_NAMES: Readonly<Record<DatasetName, { required: readonly string[]; optional: readonly string[] }>> = {
  places: { required: ["countries", "admin1", "places"], optional: ["alternateNames", "subdivisions"] },
  admin: { required: ["naturalearth", "timezones", "places", "admin1"], optional: [] },
  elevation: { required: ["global"], optional: ["srtm"] },
  stations: { required: ["noaa", "wmo"], optional: ["metar", "synop", "reports"] },
  // Not downloaded by the nightly: the forecast step reads the .idx files and byte ranges itself.
  // `base` serves the models of `--model` by default; a source named after a model id serves that model.
  forecast: { required: ["base"], optional: ["ecmwf-ifs-0p25", "cmc-gdps"] },
};

/** Sources the nightly downloads (the forecast base URL is handed to the step instead). */
export function downloadedSources(dataset: DatasetName, plan: DatasetPlan): Array<[string, DatasetPlan["sources"][string]]> {
  return dataset === "forecast" ? [] : Object.entries(plan.sources);
}

export function checkSourceNames(dataset: DatasetName, plan: DatasetPlan, file: string): void {
  const names = SOURCE_NAMES[dataset];
  for (const n of names.required) if (!plan.sources[n]?.length) throw new ConfigError(`${file}: datasets.${dataset}.sources.${n}`, "a URL (required)", "nothing");
  for (const n of Object.keys(plan.sources)) {
    if (!names.required.includes(n) && !names.optional.includes(n)) throw new ConfigError(`${file}: datasets.${dataset}.sources.${n}`, `one of ${[...names.required, ...names.optional].join(", ")}`, n);
  }
}

function one(fetched: Map<string, FetchedSource[]>, name: string): string {
  return fetched.get(name)![0]!.localPath;
}

function all(fetched: Map<string, FetchedSource[]>, name: string): string[] {
  return (fetched.get(name) ?? []).map((f) => f.localPath);
}

/**
 * The forecast sources as the step reads them: an http(s) base by .idx and byte ranges, or a
 * local directory (a mirror on disk). `base` first, then one per model id.
 */
export function forecastLocations(plan: DatasetPlan, mirror: string | undefined): Array<MirroredLocation & { name: string }> {
  return Object.entries(plan.sources).map(([name, list]) => {
    const url = list[0]!.url;
    const mapped = mirrorUrl(url, mirror);
    return { name, url, location: mapped.startsWith("file:") ? fileURLToPath(mapped) : mapped };
  }).sort((a, b) => Number(b.name === "base") - Number(a.name === "base"));
}

export type ArgsContext = {
  plan: DatasetPlan;
  fetched: Map<string, FetchedSource[]>;
  mirror: string | undefined;
  /** The shared download cache of the forecast step (kept across releases). */
  forecastCache: string;
};

/** The step's command line for this dataset. */
export function stepArgs(dataset: DatasetName, c: ArgsContext): string[] {
  const { fetched, plan } = c;
  switch (dataset) {
    case "places":
      return [
        "--countries", one(fetched, "countries"),
        "--admin1", one(fetched, "admin1"),
        ...all(fetched, "places").flatMap((p) => ["--places", p]),
        ...(fetched.has("alternateNames") ? ["--alternate-names", one(fetched, "alternateNames")] : []),
        ...(fetched.has("subdivisions") ? ["--subdivisions", one(fetched, "subdivisions")] : []),
        ...plan.args,
      ];
    case "admin":
      return ["--naturalearth", one(fetched, "naturalearth"), "--timezones", one(fetched, "timezones"), "--places", one(fetched, "places"), "--admin1", one(fetched, "admin1"), ...plan.args];
    case "elevation":
      return [...all(fetched, "global").flatMap((g) => ["--global", g]), ...all(fetched, "srtm").flatMap((h) => ["--hgt", h]), ...plan.args];
    case "stations":
      return ["--noaa", one(fetched, "noaa"), "--wmo", one(fetched, "wmo"), "--merge", ...plan.args, ...all(fetched, "metar"), ...all(fetched, "synop"), ...all(fetched, "reports")];
    case "forecast": {
      const [base, ...models] = forecastLocations(plan, c.mirror);
      return ["--source", base!.location, ...models.flatMap((m) => ["--model-source", `${m.name}=${m.location}`]), "--cache", c.forecastCache, ...plan.args];
    }
  }
}

/** Hard-links (or copies) every file of `from` into `to`, recursively. */
async function linkTree(from: string, to: string): Promise<void> {
  await fs.mkdir(to, { recursive: true });
  for (const e of await fs.readdir(from, { withFileTypes: true })) {
    const a = path.join(from, e.name);
    const b = path.join(to, e.name);
    if (e.isDirectory()) await linkTree(a, b);
    else if (e.isFile()) await fs.link(a, b).catch(() => fs.copyFile(a, b));
  }
}

/**
 * Seeds a new release with what its step builds on: the stations database to merge into (a copy:
 * DuckDB writes in place) and the forecast runs kept (hard links: run files never change).
 */
export async function seedRelease(dataset: DatasetName, previousDir: string | undefined, releaseDir: string): Promise<void> {
  if (!previousDir) return;
  if (dataset === "stations") {
    const from = path.join(previousDir, DATASETS.stations.file);
    const to = path.join(releaseDir, DATASETS.stations.file);
    await fs.mkdir(path.dirname(to), { recursive: true });
    await fs.copyFile(from, to).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== "ENOENT") throw err;
    });
  } else if (dataset === "forecast") {
    const from = path.join(previousDir, "forecast");
    if (await fs.stat(from).then((s) => s.isDirectory(), () => false)) await linkTree(from, path.join(releaseDir, "forecast"));
  }
}
