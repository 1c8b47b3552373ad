/**
 * Pipeline step `forecast`: GRIB files of a model (local directory or NOMADS-like HTTP tree) →
 * the forecast store (`<dataDir>/forecast/`, FORMAT in datasets/forecast/FORMAT.md).
 */
import { existsSync, promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { writeFileAtomic } from "../../datasets/artifact/atomic-write.ts";
import { describeSourceFile } from "../../datasets/artifact/source-info.ts";
import type { SourceInfo } from "../../datasets/artifact/envelope.ts";
import { EMBEDDED_DIR } from "../../datasets/common/paths.ts";
import { runFileHeaderBytes, runFileTemporaryPath } from "../../datasets/forecast/run-file.ts";
import { openForecastStore } from "../../datasets/forecast/store.ts";
import { type PipelineStep, type StepContext, type StepSourceReport, cacheDirOf } from "../common/step.ts";
import { buildRun, TILE, type BuildOptions } from "./build-run.ts";
import { collectFields } from "./collect.ts";
import { fileFieldStore, memoryFieldStore, type FieldStore } from "./field-store.ts";
import { GRIB_CODEC, type GribCodec } from "./grib-codec.ts";
import { httpSource, isHttp, localSource, type GribSource } from "./grib-source.ts";
import { formatInventory } from "./inventory.ts";
import type { ModelDomain } from "./models/types.ts";
import { MODELS } from "./models/registry.ts";
import { USAGE, parseForecastOptions, type ForecastOptions } from "./options.ts";
import { packedFieldStore } from "./packed-store.ts";
import { publishRuns, readCurrentIndex, runFileName, type RunToPublish } from "./publish.ts";
import { findRuns, resolveRun } from "./runs.ts";

export const EMBEDDED_GRIB_DIR = path.join(EMBEDDED_DIR, "grib");
/** The sample models built from datasets/embedded/grib by `build-default`. */
export const EMBEDDED_MODELS = ["gfs-2p5-sample", "gfs-iberia-grib1", "gfs-mediterranean-grib1", "gfs-alaska-0p5", "gfs-alaska-2p5", "gfs-1p0-precip"];

/** Run payloads of more values than this are assembled in a temporary file, not in memory. */
const SPILL_VALUES = 64 * 2 ** 20;
/** Fields held in memory up to this many bytes per run; beyond, spilled to a temporary file. */
const MEMORY_BUDGET = 2 * 2 ** 30;

export interface IngestReport {
  runs: { model: string; runTime: string; steps: number; variables: number }[];
  messagesDecoded: number;
  requests: number;
  bytesFetched: number;
  cacheHits: number;
  /** Per model: where its files were read, the runs chosen and what reading them cost. */
  sources: StepSourceReport[];
}

function sourceFor(o: ForecastOptions, domain: ModelDomain, ctx: StepContext): GribSource {
  const own = o.modelSources[domain.id];
  const chosen = own !== undefined ? [own] : o.sources;
  if (chosen.length === 0) return localSource([process.cwd()]);
  const locations = chosen.map((s) => (s === "upstream" ? domain.upstream ?? "" : s));
  if (locations.some((s) => s === "")) throw new Error(`model ${domain.id} has no upstream server; give --source`);
  if (isHttp(locations[0]!)) {
    return httpSource(locations[0]!, { cacheDir: o.cacheDir ?? cacheDirOf(ctx, "forecast"), logger: ctx.logger });
  }
  return localSource(locations);
}

/** The directory the files share (relative, '/'-terminated), or "" when they are spread out. */
function commonDir(files: readonly string[]): string {
  const dirs = new Set(files.map((f) => path.posix.dirname(f)));
  const dir = dirs.size === 1 ? [...dirs][0]! : ".";
  return dir === "." ? "" : `${dir}/`;
}

/** Adds what reading one model cost to the report, with where it was read and the runs chosen. */
function account(report: IngestReport, domain: ModelDomain, source: GribSource, files: readonly string[], runs: readonly string[], filesRead: number, inStore: boolean): void {
  const { stats } = source;
  report.requests += stats.requests;
  report.bytesFetched += stats.bytesFetched;
  report.cacheHits += stats.cacheHits;
  const status = inStore ? "in-store" : !source.remote ? "local" : stats.requests > 0 ? "fetched" : "cached";
  report.sources.push({
    url: source.locate(commonDir(files)),
    status,
    model: domain.id,
    runs: [...runs].sort().reverse(),
    files: filesRead,
    requests: stats.requests,
    cacheHits: stats.cacheHits,
    bytesFetched: source.remote ? stats.bytesFetched : 0,
    ...(stats.lastModified !== undefined ? { lastModified: stats.lastModified } : {}),
  });
}

/**
 * Decoded fields in memory when they fit the budget; else packed where they lie, decoded band by
 * band (a temporary file of float32 for those that cannot be: JPEG 2000, CCSDS, bitmaps, GRIB1).
 */
function fieldStoreFor(domain: ModelDomain, steps: number, budget: number): FieldStore {
  const bytes = domain.grid.nLat * domain.grid.nLon * 4 * steps * domain.variables.length * 1.5;
  if (bytes <= budget) return memoryFieldStore();
  const fallback = fileFieldStore(path.join(os.tmpdir(), `geodata-forecast-${process.pid}-${randomBytes(4).toString("hex")}.f32`));
  return packedFieldStore({ grid: domain.grid, bandRows: TILE.lat, fallback });
}

/** Tuning for tests: the memory budget of decoded fields, and the payload size spilled to disk. */
export type IngestTuning = { memoryBudgetBytes?: number; spillValues?: number };

async function ingestModel(domain: ModelDomain, o: ForecastOptions, ctx: StepContext, codec: GribCodec, report: IngestReport, tuning: IngestTuning): Promise<RunToPublish[]> {
  const log = ctx.logger.child({ model: domain.id });
  const source = sourceFor(o, domain, ctx);
  const steps = domain.steps.filter((s) => s >= o.fromHour && s <= o.toHour && (!o.onlySteps || o.onlySteps.includes(s)));
  const keep = o.keep ?? ctx.config.forecastKeepRuns;
  const indexed = (await readCurrentIndex(path.join(ctx.config.dataDir, "forecast"), log)).runs.filter((r) => r.model === domain.id);
  const existing = new Set(indexed.map((r) => r.runTime));
  let files: string[];
  let wanted: Set<string>;
  if (o.files.length > 0) {
    files = o.files;
    const runs = await findRuns(files, source, codec);
    wanted = new Set(runs.slice(0, keep).map((r) => r.toISOString()));
  } else if (domain.needsRun) {
    // Local mirrors are searched further back than live servers (one existence check per cycle).
    const hoursBack = source.remote ? 48 : 24 * 60;
    const resolved = await resolveRun(domain, steps, o.run, source, codec, log, { hoursBack });
    files = resolved.files;
    wanted = new Set([resolved.run.toISOString()]);
    // A run stored with fewer steps than wanted (files still being published) is fetched again.
    const stored = indexed.find((r) => r.runTime === resolved.run.toISOString());
    if (stored && stored.steps < steps.length) existing.delete(stored.runTime);
  } else {
    // A sample domain lists the files known to hold it; any of them may be given.
    files = [];
    for (const f of domain.files(undefined, steps)) {
      if (await source.exists(f.path)) files.push(f.path);
      else log.warn("sample file not in the source, skipped", { file: f.path });
    }
    const runs = await findRuns(files, source, codec);
    wanted = new Set(runs.slice(0, keep).map((r) => r.toISOString()));
  }
  const chosen = [...wanted];
  for (const r of [...wanted]) {
    if (existing.has(r) && !o.force) {
      log.info("run already in the store (use --force to rebuild)", { runTime: r });
      wanted.delete(r);
    }
  }
  if (wanted.size === 0) {
    account(report, domain, source, files, chosen, 0, true);
    return [];
  }
  const store = fieldStoreFor(domain, steps.length, tuning.memoryBudgetBytes ?? MEMORY_BUDGET);
  const spills: string[] = [];
  try {
    if (steps.length === 0) throw new Error(`model ${domain.id}: no step in the range asked for`);
    const collected = await collectFields({ domain, steps, files, source, codec, store, logger: log, skipMissing: domain.needsRun, wantRun: (t) => wanted.has(t.toISOString()) });
    if (collected.missingFiles.length > 0) log.warn("files not found, their steps left out", { files: collected.missingFiles.length, first: collected.missingFiles[0] });
    report.messagesDecoded += collected.messagesDecoded;
    const out: RunToPublish[] = [];
    for (const run of [...collected.runs.values()].sort((a, b) => b.runTime.getTime() - a.runTime.getTime())) {
      const sources: SourceInfo[] = [];
      for (const f of run.sources) {
        const where = source.locate(f);
        sources.push(isHttp(where) ? { name: path.posix.basename(f), location: where } : await describeSourceFile(where));
      }
      // A large payload goes straight into the run file's temporary path, behind room for its header.
      const values = domain.grid.nLat * domain.grid.nLon * domain.variables.length * steps.length;
      let spill: BuildOptions["spill"];
      if (values > (tuning.spillValues ?? SPILL_VALUES)) {
        const file = path.join(ctx.config.dataDir, "forecast", ...runFileName(domain.id, run.runTime.toISOString()).split("/"));
        await fs.mkdir(path.dirname(file), { recursive: true });
        spill = { path: runFileTemporaryPath(file), offset: (meta) => runFileHeaderBytes(meta, sources) };
        spills.push(spill.path);
      }
      const built = buildRun(domain, run, store, log, spill ? { steps, spill } : { steps });
      out.push({ meta: built.meta, payload: built.payload, sources });
      report.runs.push({ model: domain.id, runTime: built.meta.runTime, steps: built.meta.steps.length, variables: built.meta.variables.length });
    }
    account(report, domain, source, files, chosen, new Set([...collected.runs.values()].flatMap((r) => [...r.sources])).size, false);
    spills.length = 0;
    return out;
  } finally {
    store.close();
    // A failed build leaves no partial run file behind (a published one was renamed away).
    for (const p of spills) await fs.rm(p, { force: true });
  }
}

/** The stored series around a point, per model (newest run): for data engineers comparing with other tools. */
async function pointReport(ctx: StepContext, [lat, lon]: [number, number], models: string[]): Promise<unknown[]> {
  const store = await openForecastStore(path.join(ctx.config.dataDir, "forecast"));
  try {
    const out: unknown[] = [];
    for (const model of models.length > 0 ? models : store.models()) {
      const run = store.latest(model);
      const p = run?.pointSeries(lat, lon);
      if (!run || !p) {
        out.push({ model, error: run ? "point outside the model's grid" : "model not in the store" });
        continue;
      }
      out.push({
        model,
        runTime: p.runTime,
        steps: p.steps,
        intervalStart: p.intervalStart,
        units: Object.fromEntries(run.meta.variables.map((v) => [v.name, v.unit])),
        absent: run.meta.absent,
        cells: p.cells.map((c, k) => ({
          lat: c.lat,
          lon: c.lon,
          weight: c.weight,
          values: Object.fromEntries(p.variables.map((name, v) => [name, Array.from(p.values[v]![k]!, (x) => (Number.isNaN(x) ? null : Number(x.toPrecision(7))))])),
        })),
      });
    }
    return out;
  } finally {
    store.close();
  }
}

/** Runs the step; returns what it did (tests and benches read it). */
export async function runForecast(args: string[], ctx: StepContext, codec: GribCodec = GRIB_CODEC, tuning: IngestTuning = {}): Promise<IngestReport> {
  const o = parseForecastOptions(args);
  const report: IngestReport = { runs: [], messagesDecoded: 0, requests: 0, bytesFetched: 0, cacheHits: 0, sources: [] };
  if (o.listModels) {
    for (const m of MODELS) process.stdout.write(`${m.id}\t${m.description}\n\t${[...new Set(m.variables.map((v) => v.name))].join(", ")}\n`);
    return report;
  }
  if (o.point) {
    for (const entry of await pointReport(ctx, o.point, o.models.map((m) => m.id))) process.stdout.write(JSON.stringify(entry) + "\n");
    return report;
  }
  if (o.writeIdx.length > 0) {
    for (const file of o.writeIdx) {
      const bytes = await fs.readFile(file);
      await writeFileAtomic(`${file}.idx`, [Buffer.from(formatInventory(codec.scan(bytes, file)))]);
      ctx.logger.info("inventory written", { file: `${file}.idx` });
    }
    return report;
  }
  const toPublish: RunToPublish[] = [];
  let index;
  try {
    for (const domain of o.models) toPublish.push(...(await ingestModel(domain, o, ctx, codec, report, tuning)));
    // Published even without new runs: applies --keep and creates an empty index on a first run.
    const onlyModels = o.dropOtherModels ? new Set(o.models.map((m) => m.id)) : undefined;
    index = await publishRuns(path.join(ctx.config.dataDir, "forecast"), toPublish, o.keep ?? ctx.config.forecastKeepRuns, ctx.logger, onlyModels);
  } catch (err) {
    // Runs spilled into temporary run files and not published: remove them.
    for (const r of toPublish) if (r.payload.spill) await fs.rm(r.payload.spill.path, { force: true });
    throw err;
  }
  ctx.logger.info("forecast store published", { runs: index.runs.length, newRuns: toPublish.length });
  ctx.logger.info("ingest summary", { ...report });
  return report;
}

export const forecastStep: PipelineStep = {
  name: "forecast",
  summary: "GRIB forecasts (local files or NOMADS byte ranges) -> per-run time-series store",
  usage: USAGE,
  codeVersion: 4,
  embeddedDefault: {
    // The 1 degree model also reads a 24-hour file that is not embedded: list only what is there.
    inputs: () => [...new Set(MODELS.filter((m) => EMBEDDED_MODELS.includes(m.id)).flatMap((m) => m.files(undefined, m.steps).map((f) => path.join(EMBEDDED_GRIB_DIR, f.path))))].filter((f) => existsSync(f)),
    // The default is rebuilt only when its inputs or code changed, and then every run must be
    // rewritten: --force, or runs already in the store would be kept as they were.
    args: () => ["--model", EMBEDDED_MODELS.join(","), "--source", EMBEDDED_GRIB_DIR, "--force"],
  },
  async run(args, ctx) {
    const { sources } = await runForecast(args, ctx);
    // The nightly's summary counts network bytes: a local directory's reads are not downloads.
    return { sources, bytesFetched: sources.reduce((n, s) => n + s.bytesFetched, 0) };
  },
};
