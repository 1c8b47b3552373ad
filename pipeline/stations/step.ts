/**
 * Pipeline step `stations`: station metadata (NOAA nsd_cccc.txt + WMO station list) and decoded
 * METAR/SYNOP observations from report files, directories or URLs, deduplicated, retained per
 * station, written to `stations/stations.duckdb` (temporary file, then rename), and from it
 * `stations/stations.idx`, what the server reads (index-writer.ts).
 */
import { promises as fs, readdirSync } from "node:fs";
import path from "node:path";
import { DATASETS } from "../../datasets/catalog.ts";
import { LIMITS } from "../../datasets/common/config.ts";
import { ConfigError, MissingInputError } from "../../datasets/common/errors.ts";
import { EMBEDDED_DIR } from "../../datasets/common/paths.ts";
import { describeSourceFile } from "../../datasets/artifact/source-info.ts";
import type { SourceInfo } from "../../datasets/artifact/envelope.ts";
import { isUrl, localFileOf, readSource } from "../common/source.ts";
import { Progress } from "../common/progress.ts";
import { type PipelineStep, type StepContext, cacheDirOf } from "../common/step.ts";
import { StepOptions } from "../common/options.ts";
import { parseReferenceOption, referenceFromFileName, type ReferenceDate } from "./ingest/dating.ts";
import { ObservationSet } from "./ingest/dedupe.ts";
import { observe } from "./ingest/observe.ts";
import { isAviationWeatherCsv, splitReports } from "./ingest/split.ts";
import { readExistingObservations } from "./store-reader.ts";
import { joinStationLists, readNsdCccc, readWmoStations } from "./station-lists.ts";
import { writeStationStore, type UndatedReport } from "./store-writer.ts";
import { writeStationsIndex } from "./index-writer.ts";

const USAGE = `stations [options] <report file | directory | URL>...

Builds stations/stations.duckdb, and from it stations/stations.idx (what the server reads), from
station lists and METAR/SYNOP report files: WMO bulletins, one report per line (NOAA cycle files
with date lines too), aviationweather.gov CSV (raw_text), plain or .gz/.zip. Directories are read
recursively in name order; later files win ties.

Options:
  --noaa <file|URL>        NOAA nsd_cccc.txt station list (required)
  --wmo <file|URL>         WMO station list CSV (wmo_index,lat,lon,elev_m,...) (required)
  --month <YYYY-MM[-DD]>   year and month of reports whose file carries no date; without it such
                           reports are stored as undated (never given a guessed date)
  --retention-days <n>     keep each station's observations of the n days before its newest one
                           (default GEODATA_STATIONS_RETENTION_DAYS)
  --merge                  keep the observations of the current artifact (nightly runs)`;

interface Options {
  noaa?: string;
  wmo?: string;
  month?: ReferenceDate;
  retentionDays: number;
  merge: boolean;
  inputs: string[];
}

function parseArgs(args: string[], ctx: StepContext): Options {
  const o = new StepOptions("stations", args, { values: ["noaa", "wmo", "month", "retention-days"], flags: ["merge"], positional: true });
  const opts: Options = {
    noaa: o.required("noaa", "the NOAA nsd_cccc.txt station list"),
    wmo: o.required("wmo", "the WMO station list CSV"),
    retentionDays: o.int("retention-days", ctx.config.stationsRetentionDays, LIMITS.stationsRetentionDays.min, LIMITS.stationsRetentionDays.max),
    merge: o.flag("merge"),
    inputs: o.positional,
  };
  const month = o.get("month");
  if (month !== undefined) {
    const ref = parseReferenceOption(month);
    if (!ref) throw new ConfigError("--month", "YYYY-MM or YYYY-MM-DD", month);
    opts.month = ref;
  }
  return opts;
}

/** Expands directories (recursively, name order); URLs and files pass through. */
async function expandInputs(inputs: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  for (const input of inputs) {
    if (isUrl(input)) {
      out.push(input);
      continue;
    }
    let stat;
    try {
      stat = await fs.stat(input);
    } catch {
      throw new MissingInputError(input, "report file or directory");
    }
    if (stat.isDirectory()) await walk(input);
    else out.push(input);
  }
  return out;
}

async function run(args: string[], ctx: StepContext): Promise<void> {
  const opts = parseArgs(args, ctx);
  const log = ctx.logger;
  const cacheDir = cacheDirOf(ctx, "downloads");
  const srcOpts = { cacheDir, logger: log };
  const sources: SourceInfo[] = [];
  const noaaText = (await readSource(opts.noaa!, srcOpts)).toString("latin1");
  const wmoText = (await readSource(opts.wmo!, srcOpts)).toString("latin1");
  sources.push(await describeSourceFile(await localFileOf(opts.noaa!, srcOpts), "NOAA nsd_cccc.txt"));
  sources.push(await describeSourceFile(await localFileOf(opts.wmo!, srcOpts), "WMO station list"));
  const noaa = readNsdCccc(noaaText, opts.noaa!);
  const wmo = await readWmoStations(wmoText, opts.wmo!);
  const stations = joinStationLists(noaa.stations, wmo.stations);
  log.info("station lists read", { noaa: noaa.stations.length, wmo: wmo.stations.length, joined: stations.length, noaaBadCoordinates: noaa.badCoordinates, wmoBadCoordinates: wmo.badCoordinates });

  const finalPath = path.join(ctx.config.dataDir, DATASETS.stations.file);
  const set = new ObservationSet();
  const undated: UndatedReport[] = [];
  const rejected: Record<string, number> = {};
  const dating: Record<string, string> = {};
  let merged = 0;
  let reports = 0;
  let unreadGroups = 0;
  if (opts.merge) {
    merged = await readExistingObservations(finalPath, (o) => set.add(o)).catch((err: unknown) => {
      if ((err as NodeJS.ErrnoException).code === "ENOENT" || err instanceof MissingInputError) return 0;
      throw err;
    });
    log.info("merged the current artifact's observations", { observations: merged });
  }
  const files = await expandInputs(opts.inputs);
  const progress = new Progress(log, "decode reports", files.length, "files");
  for (const file of files) {
    const local = await localFileOf(file, srcOpts);
    const content = (await readSource(file, srcOpts)).toString("latin1");
    const name = path.basename(file);
    if (/\.csv(\.gz)?$/i.test(name) && !(await isAviationWeatherCsv(content))) {
      log.warn("skipped a CSV without a raw_text column (not a report file)", { file: name });
      progress.tick();
      continue;
    }
    const fileRef = referenceFromFileName(name) ?? opts.month;
    dating[name] = fileRef ? `${fileRef.origin}: ${fileRef.year}-${String(fileRef.month).padStart(2, "0")}` : "per report (CSV/date lines) or undated";
    sources.push(await describeSourceFile(local, name));
    for (const report of await splitReports(content, name)) {
      reports++;
      const outcome = observe(report, fileRef, name);
      if (outcome.kind === "observation") {
        set.add(outcome.observation);
        unreadGroups += outcome.unreadGroups;
      } else if (outcome.kind === "undated") {
        undated.push({ kind: outcome.family, station: outcome.station, day: outcome.day, hour: outcome.hour, minute: outcome.minute, raw: outcome.raw, source: outcome.source });
      } else rejected[outcome.reason] = (rejected[outcome.reason] ?? 0) + 1;
    }
    progress.tick();
  }
  const { observations, droppedByRetention } = set.finish(opts.retentionDays);
  progress.finish({ reports, observations: observations.length, undated: undated.length });
  if (undated.length > 0) {
    log.warn("reports without a known year and month were stored as undated (give --month to date them)", { undated: undated.length });
  }
  const newest = observations.reduce((m, o) => Math.max(m, o.record.timestamp), 0);
  const counts: Record<string, number> = {
    stations: stations.length,
    observations: observations.length,
    metarObservations: observations.filter((o) => o.kind === "METAR").length,
    synopObservations: observations.filter((o) => o.kind === "SYNOP").length,
    undatedReports: undated.length,
    reportsRead: reports,
    duplicatesReplaced: set.replaced,
    olderCorrectionsIgnored: set.ignoredOlderCorrection,
    droppedByRetention,
    unreadGroups,
    mergedFromPrevious: merged,
  };
  for (const [reason, n] of Object.entries(rejected)) counts[`rejected ${reason}`] = n;
  await writeStationStore(finalPath, {
    stations,
    observations,
    undated,
    sources,
    counts,
    extra: {
      retentionDays: opts.retentionDays,
      retentionReference: "each station's newest observation",
      newestObservation: newest > 0 ? new Date(newest * 1000).toISOString() : null,
      dating,
    },
  });
  log.info("stations artifact written", { file: DATASETS.stations.file, ...counts });
  const indexCounts = await writeStationsIndex(finalPath, path.join(ctx.config.dataDir, DATASETS.stations.servedFile!));
  log.info("stations index written", { file: DATASETS.stations.servedFile, metarStations: indexCounts.metarStations, synopStations: indexCounts.synopStations, locatedStations: indexCounts.locatedStations, unstorableIdentifiers: indexCounts.unstorableIdentifiers });
}

const EMBEDDED = EMBEDDED_DIR;

/** Every file under a directory, in name order (the embedded default's staleness inputs). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

export const stationsStep: PipelineStep = {
  name: "stations",
  summary: "Station lists + decoded METAR/SYNOP histories -> stations/stations.duckdb and stations.idx",
  usage: USAGE,
  codeVersion: 5,
  embeddedDefault: {
    inputs: () => ["stations", "metar", "synop"].flatMap((d) => filesUnder(path.join(EMBEDDED, d))),
    args: (ctx) => [
      "--retention-days", String(ctx.config.stationsRetentionDays),
      "--noaa", path.join(EMBEDDED, "stations", "nsd_cccc.txt.gz"),
      "--wmo", path.join(EMBEDDED, "stations", "wmo_stations.csv.gz"),
      path.join(EMBEDDED, "metar"),
      path.join(EMBEDDED, "synop"),
    ],
  },
  run,
};
