/** Command-line options of the `forecast` step, validated once. */
import { LIMITS } from "../../datasets/common/config.ts";
import { ConfigError } from "../../datasets/common/errors.ts";
import { StepOptions } from "../common/options.ts";
import { MODELS, modelById } from "./models/registry.ts";
import type { ModelDomain } from "./models/types.ts";

export interface ForecastOptions {
  models: ModelDomain[];
  /** Local directories or one base URL; "upstream" = each model's upstream URL. */
  sources: string[];
  /** Per-model source overriding `sources` (model id -> directory, URL or "upstream"). */
  modelSources: Record<string, string>;
  /** Run for models that need one: a date, or "latest". */
  run: Date | "latest";
  /** Lead-time limits in hours (inclusive). */
  fromHour: number;
  toHour: number;
  /** Only these lead times (hours), when given as a list. */
  onlySteps: number[] | undefined;
  keep: number | undefined;
  cacheDir: string | undefined;
  force: boolean;
  /** The store keeps only the runs of `models` (other models' runs leave the index). */
  dropOtherModels: boolean;
  /** Write `.idx` inventories for these GRIB files and exit. */
  writeIdx: string[];
  listModels: boolean;
  /** Explicit input files (relative to --source, or local paths): runs are read from their messages. */
  files: string[];
  /** Print the stored series around this point (lat, lon) as JSON, then exit. */
  point: [number, number] | undefined;
}

export const USAGE = `Options:
  --model <id[,id...]>   Models to ingest (--list-models shows them).
  --source <dir|url|upstream>[,...]
                         Where the GRIB files are: local directories (searched in order) or one
                         HTTP base URL laid out like NOMADS (each file's .idx is read and only the
                         needed messages are fetched with Range requests); "upstream" = the
                         model's own server (NOMADS for gfs025/gfs050/gfs100, ECMWF open data
                         for ecmwf-ifs-0p25, the MSC Datamart for cmc-gdps).
  --model-source <id>=<dir|url|upstream>
                         This model's source instead of --source (repeatable), so that models of
                         several providers ingest in one invocation.
  --files <file[,file...]>
                         Read these GRIB files instead of the model's file names (relative to
                         --source, or local paths); the runs are taken from their messages.
  --run <YYYYMMDDHH|latest>
                         Run of models published per cycle (default latest: the newest cycle
                         whose first file is there). Sample models take their runs from the files.
  --steps <from-to|h,h,...>
                         Only lead times in this range, or only these, hours (default all).
  --keep <n>             Runs kept per model (default GEODATA_FORECAST_KEEP_RUNS).
  --cache <dir>          Download cache (default <GEODATA_DATA_DIR>/.cache/forecast).
  --force                Rebuild runs already in the store.
  --drop-other-models    Keep only the runs of --model in the store (e.g. drop the embedded
                         default's sample runs once a real model is ingested).
  --write-idx <file...>  Write a wgrib2-style <file>.idx for each GRIB file, then exit.
  --list-models          Print the models and their variables, then exit.
  --point <lat,lon>      Print, as JSON, the stored series of the four grid cells around the point
                         (newest run of each --model, or of every model), then exit.
Output: <GEODATA_DATA_DIR>/forecast/ (index.bin + <model>/<YYYYMMDDHH>.fcst).`;

export function parseRun(text: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})$/.exec(text);
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]))) : undefined;
  if (!d || Number.isNaN(d.getTime()) || d.getUTCHours() !== Number(m![4])) throw new ConfigError("--run", "YYYYMMDDHH or latest", text);
  return d;
}

export function parseForecastOptions(args: string[]): ForecastOptions {
  const opts = new StepOptions("forecast", args, {
    values: ["model", "source", "model-source", "files", "run", "steps", "keep", "cache", "point"],
    flags: ["force", "write-idx", "list-models", "drop-other-models"],
    positional: true,
  });
  const list = (name: string): string[] => opts.all(name).flatMap((v) => v.split(",")).filter(Boolean);
  const o: ForecastOptions = { models: [], sources: list("source"), modelSources: {}, run: "latest", fromHour: 0, toHour: Infinity, onlySteps: undefined, keep: undefined, cacheDir: opts.get("cache"), force: opts.flag("force"), dropOtherModels: opts.flag("drop-other-models"), writeIdx: [], listModels: opts.flag("list-models"), point: undefined, files: list("files") };
  for (const value of opts.all("model")) {
    for (const id of value.split(",")) {
      const m = modelById(id.trim());
      if (!m) throw new ConfigError("--model", `one of ${MODELS.map((x) => x.id).join(", ")}`, id);
      o.models.push(m);
    }
  }
  for (const v of opts.all("model-source")) {
    const eq = v.indexOf("=");
    const id = eq > 0 ? v.slice(0, eq) : "";
    if (!modelById(id) || eq === v.length - 1) throw new ConfigError("--model-source", `<model id>=<dir|url|upstream> with a known model id`, v);
    o.modelSources[id] = v.slice(eq + 1);
  }
  const run = opts.get("run");
  if (run !== undefined) o.run = run === "latest" ? "latest" : parseRun(run);
  const steps = opts.get("steps");
  if (steps !== undefined) {
    const m = /^(\d+)-(\d+)$/.exec(steps);
    if (m && Number(m[1]) <= Number(m[2])) {
      o.fromHour = Number(m[1]);
      o.toHour = Number(m[2]);
    } else if (/^\d+(,\d+)*$/.test(steps)) {
      o.onlySteps = steps.split(",").map(Number);
    } else {
      throw new ConfigError("--steps", "FROM-TO (FROM <= TO) or a list H,H,... in hours", steps);
    }
  }
  if (opts.get("keep") !== undefined) o.keep = opts.int("keep", 0, LIMITS.forecastKeepRuns.min, LIMITS.forecastKeepRuns.max);
  const point = opts.get("point");
  if (point !== undefined) {
    const m = /^(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$/.exec(point);
    if (!m || Math.abs(Number(m[1])) > 90 || Math.abs(Number(m[2])) > 360) throw new ConfigError("--point", "LAT,LON in degrees", point);
    o.point = [Number(m[1]), Number(m[2])];
  }
  // --write-idx takes the GRIB files that follow it (plain arguments); they are not taken otherwise.
  if (opts.flag("write-idx")) {
    if (opts.positional.length === 0) throw new ConfigError("--write-idx", "one or more GRIB files", "");
    o.writeIdx = opts.positional;
  } else if (opts.positional.length > 0) {
    throw new ConfigError("forecast", "--option value pairs (GRIB files only after --write-idx)", opts.positional.join(" "));
  }
  if (!o.listModels && o.writeIdx.length === 0 && !o.point) {
    if (o.models.length === 0) throw new ConfigError("--model", "one or more model ids", "");
    const unsourced = o.models.filter((m) => o.modelSources[m.id] === undefined);
    if (o.sources.length === 0 && o.files.length === 0 && unsourced.length > 0) throw new ConfigError("--source", "a directory, a URL or upstream (or --files)", "");
  }
  return o;
}
