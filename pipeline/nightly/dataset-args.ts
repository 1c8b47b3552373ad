/**
 * How the nightly turns a dataset's fetched sources into the options of its pipeline step (the
 * same step `npm run pipeline -- <step>` runs). What a release holds before its step runs is
 * pipeline/releases/seed.ts.
 */
import { fileURLToPath } from "node:url";
import type { DatasetName } from "../../datasets/catalog.ts";
import { ConfigError } from "../../datasets/common/errors.ts";
import type { DatasetPlan } from "./config.ts";
import type { FetchedSource } from "./download.ts";
import { mirrorUrl, type MirroredLocation } from "./mirror.ts";

/** Sources each dataset's configuration may name; `required` ones must be there. */
export const SOURCE_NAMES: Readonly<Record<DatasetName, { required: readonly string[]; optional: readonly string[] }>> = {
  places: { required: ["countries", "admin1", "places"], optional: ["alternateNames", "subdivisions", "admin2"] },
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
        ...(fetched.has("admin2") ? ["--admin2", one(fetched, "admin2")] : []),
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
