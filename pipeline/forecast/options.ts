/** Command-line options of the `forecast` step, validated once. */
import { ConfigError } from "../../datasets/common/errors.ts";
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
  --write-idx <file...>  Write a wgrib2-style <file>.idx for each GRIB file, then exit.
  --list-models          Print the models and their variables, then exit.
  --point <lat,lon>      Print, as JSON, the stored series of the four grid cells around the point
                         (newest run of each --model, or of every model), then exit.
Output: <GEODATA_DATA_DIR>/forecast/ (index.bin + <model>/<YYYYMMDDHH>.fcst).`;

function value(args: string[], i: number, name: string): string {
  const v = args[i + 1];
  if (v === undefined || v.startsWith("--")) throw new ConfigError(name, "a value", v ?? "");
  return v;
}

export function parseRun(text: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})$/.exec(text);
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]))) : undefined;
  if (!d || Number.isNaN(d.getTime()) || d.getUTCHours() !== Number(m![4])) throw new ConfigError("--run", "YYYYMMDDHH or latest", text);
  return d;
}

export function parseForecastOptions(args: string[]): ForecastOptions {
  const o: ForecastOptions = { models: [], sources: [], modelSources: {}, run: "latest", fromHour: 0, toHour: Infinity, onlySteps: undefined, keep: undefined, cacheDir: undefined, force: false, writeIdx: [], listModels: false, point: undefined, files: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    switch (arg) {
      case "--model":
        for (const id of value(args, i++, arg).split(",")) {
          const m = modelById(id.trim());
          if (!m) throw new ConfigError(arg, `one of ${MODELS.map((x) => x.id).join(", ")}`, id);
          o.models.push(m);
        }
        break;
      case "--files":
        o.files.push(...value(args, i++, arg).split(",").filter(Boolean));
        break;
      case "--source":
        o.sources.push(...value(args, i++, arg).split(",").filter(Boolean));
        break;
      case "--model-source": {
        const v = value(args, i++, arg);
        const eq = v.indexOf("=");
        const id = eq > 0 ? v.slice(0, eq) : "";
        if (!modelById(id) || eq === v.length - 1) throw new ConfigError(arg, `<model id>=<dir|url|upstream> with a known model id`, v);
        o.modelSources[id] = v.slice(eq + 1);
        break;
      }
      case "--run": {
        const v = value(args, i++, arg);
        o.run = v === "latest" ? "latest" : parseRun(v);
        break;
      }
      case "--steps": {
        const v = value(args, i++, arg);
        const m = /^(\d+)-(\d+)$/.exec(v);
        if (m && Number(m[1]) <= Number(m[2])) {
          o.fromHour = Number(m[1]);
          o.toHour = Number(m[2]);
        } else if (/^\d+(,\d+)*$/.test(v)) {
          o.onlySteps = v.split(",").map(Number);
        } else {
          throw new ConfigError(arg, "FROM-TO (FROM <= TO) or a list H,H,... in hours", v);
        }
        break;
      }
      case "--keep": {
        const v = value(args, i++, arg);
        if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 100) throw new ConfigError(arg, "an integer from 1 to 100", v);
        o.keep = Number(v);
        break;
      }
      case "--cache":
        o.cacheDir = value(args, i++, arg);
        break;
      case "--force":
        o.force = true;
        break;
      case "--list-models":
        o.listModels = true;
        break;
      case "--point": {
        const v = value(args, i++, arg);
        const m = /^(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$/.exec(v);
        if (!m || Math.abs(Number(m[1])) > 90 || Math.abs(Number(m[2])) > 360) throw new ConfigError(arg, "LAT,LON in degrees", v);
        o.point = [Number(m[1]), Number(m[2])];
        break;
      }
      case "--write-idx":
        while (i + 1 < args.length && !args[i + 1]!.startsWith("--")) o.writeIdx.push(args[++i]!);
        if (o.writeIdx.length === 0) throw new ConfigError(arg, "one or more GRIB files", "");
        break;
      default:
        throw new ConfigError("forecast options", "one of --model --source --model-source --files --run --steps --keep --cache --force --write-idx --list-models --point", arg);
    }
  }
  if (!o.listModels && o.writeIdx.length === 0 && !o.point) {
    if (o.models.length === 0) throw new ConfigError("--model", "one or more model ids", "");
    const unsourced = o.models.filter((m) => o.modelSources[m.id] === undefined);
    if (o.sources.length === 0 && o.files.length === 0 && unsourced.length > 0) throw new ConfigError("--source", "a directory, a URL or upstream (or --files)", "");
  }
  return o;
}
