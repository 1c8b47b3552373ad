/**
 * One nightly run: for each configured dataset, in catalog order, fetch its sources, skip it when
 * every source is the version the current release was built from (unless forced), else build it
 * into a new release directory with its pipeline step, check it (the server's checks, then counts
 * against the previous release) and publish it by writing `current.txt`, each dataset under its
 * lock (pipeline/releases/dataset-lock.ts). A dataset that fails at any stage keeps its previous
 * release and is reported; the others go on. Old releases are pruned.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { DatasetName } from "../../datasets/catalog.ts";
import { DATASET_NAMES } from "../../datasets/catalog.ts";
import type { Config } from "../../datasets/common/config.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { decodeIndex } from "../../datasets/forecast/index-file.ts";
import type { PipelineStep } from "../common/step.ts";
import { compareCounts, runServerCheck, type AllowEntry, type ServerCheck } from "./checks.ts";
import type { NightlyConfig } from "./config.ts";
import { downloadedSources, forecastLocations, stepArgs } from "./dataset-args.ts";
import { fetchSource, type FetchedSource, type SourceVersion } from "./download.ts";
import { upstreamOf } from "./mirror.ts";
import { lockDataset } from "../releases/dataset-lock.ts";
import { servingDir } from "../releases/build-release.ts";
import { beginRelease, currentRelease, discardRelease, finishRelease, publishRelease, pruneReleases, type Assembly } from "../releases/release-dir.ts";
import { seedRelease } from "../releases/seed.ts";
import { mapConcurrently } from "../common/map-concurrently.ts";
import { Progress, seconds } from "../common/progress.ts";
import type { DatasetSummary } from "./summary.ts";

export type NightlyOptions = {
  config: Config;
  nightly: NightlyConfig;
  allowlist: readonly AllowEntry[];
  steps: readonly PipelineStep[];
  logger: Logger;
  /** Rebuild even when no source changed. */
  force: boolean;
  /** Only these datasets (default every configured one). */
  only?: readonly DatasetName[] | undefined;
  /** Retry tuning for tests. */
  attempts?: number;
  backoffMs?: number;
  /** The server check (tests may pass the same function; default the child process). */
  serverCheck?: (dataset: DatasetName, dir: string) => Promise<ServerCheck>;
  now?: () => Date;
};

class StageError extends Error {
  constructor(
    readonly stage: NonNullable<DatasetSummary["failedAt"]>,
    message: string,
  ) {
    super(message);
  }
}

function sameSources(a: readonly SourceVersion[], b: readonly SourceVersion[] | undefined): boolean {
  if (!b || a.length !== b.length) return false;
  const key = (v: SourceVersion) => `${v.url} ${v.sha256}`;
  const set = new Set(b.map(key));
  return a.every((v) => set.has(key(v)));
}

/** The runs a forecast index lists (model and run time), or undefined when unreadable. */
async function runsOf(dir: string): Promise<string | undefined> {
  const file = path.join(dir, "forecast", "index.bin");
  try {
    const { index } = decodeIndex(await fs.readFile(file), file);
    return JSON.stringify(index.runs.map((r) => `${r.model}@${r.runTime}`).sort());
  } catch {
    return undefined;
  }
}

/** No new forecast run: the new index lists exactly the runs of the previous release. */
async function sameRuns(previousDir: string, releaseDir: string): Promise<boolean> {
  const [a, b] = await Promise.all([runsOf(previousDir), runsOf(releaseDir)]);
  return a !== undefined && a === b;
}

/**
 * Sources fetched at once: a dataset of many small files (the SRTM set's 14,000 tiles) is bound
 * by each request's round trip, not by bandwidth; four keep one host busy without hammering it.
 */
const FETCH_CONCURRENCY = 4;

/** One dataset, under its lock: no other build or sync writes its releases meanwhile. */
async function runDataset(dataset: DatasetName, o: NightlyOptions): Promise<DatasetSummary> {
  const log = o.logger.child({ dataset });
  const lock = await lockDataset(o.config.dataDir, dataset, log);
  try {
    return await runLocked(dataset, o, log);
  } finally {
    await lock.release();
  }
}

async function runLocked(dataset: DatasetName, o: NightlyOptions, log: Logger): Promise<DatasetSummary> {
  const plan = o.nightly.datasets[dataset]!;
  const started = performance.now();
  const previous = await currentRelease(o.config.dataDir, dataset);
  const summary: DatasetSummary = {
    dataset, status: "failed", release: previous?.id, previousRelease: previous?.id, sources: [], bytesFetched: 0,
    durations: { fetchS: 0, buildS: 0, checkS: 0, totalS: 0 }, counts: {}, deltas: {}, allowed: [], pruned: [],
  };
  let release: Assembly | undefined;
  try {
    // 1. Fetch.
    const fetched = new Map<string, FetchedSource[]>();
    const cacheDir = path.join(o.config.dataDir, ".cache", "nightly");
    for (const [name, specs] of downloadedSources(dataset, plan)) {
      // One fetch per URL: concurrent fetches of one URL would share its partial file.
      const unique = [...new Map(specs.map((s) => [s.url, s])).values()];
      const progress = new Progress(log, `fetch ${dataset} ${name}`, unique.length, "files");
      const results = await mapConcurrently(unique, FETCH_CONCURRENCY, async (spec) => {
        try {
          const f = await fetchSource(spec, { cacheDir, mirror: o.config.mirror, force: o.force, logger: log, ...(o.attempts !== undefined ? { attempts: o.attempts } : {}), ...(o.backoffMs !== undefined ? { backoffMs: o.backoffMs } : {}) });
          progress.tick();
          return f;
        } catch (err) {
          throw new StageError("fetch", `${spec.url}: ${(err as Error).message}`);
        }
      });
      progress.finish();
      for (const f of results) {
        summary.bytesFetched += f.bytesFetched;
        summary.sources.push({ url: f.version.url, status: f.status, size: f.version.size, sha256: f.version.sha256, ...(f.version.etag ? { etag: f.version.etag } : {}), ...(f.version.lastModified ? { lastModified: f.version.lastModified } : {}) });
      }
      const byUrl = new Map(results.map((f) => [f.spec.url, f]));
      fetched.set(name, specs.map((s) => byUrl.get(s.url)!));
    }
    summary.durations.fetchS = seconds(performance.now() - started);
    const versions = [...fetched.values()].flat().map((f) => f.version);
    const sameArgs = JSON.stringify(previous?.manifest?.args ?? []) === JSON.stringify(plan.args);
    if (!o.force && dataset !== "forecast" && previous && sameArgs && sameSources(versions, previous.manifest?.sources)) {
      summary.status = "unchanged";
      summary.counts = previous.manifest?.counts ?? {};
      log.info("sources unchanged; release kept", { release: previous.id });
      return summary;
    }

    // 2. Build into a new release directory.
    const buildStarted = performance.now();
    release = await beginRelease(o.config.dataDir, dataset, o.now?.() ?? new Date());
    const step = o.steps.find((s) => s.name === dataset);
    if (!step) throw new StageError("build", `no pipeline step named ${dataset}`);
    const args = stepArgs(dataset, { plan, fetched, mirror: o.config.mirror, forecastCache: path.join(o.config.dataDir, ".cache", "forecast") });
    await seedRelease(dataset, (await servingDir(o.config.dataDir, dataset)).dir, release.dir, args);
    log.info("building release", { release: release.id, args });
    try {
      const report = await step.run(args, { config: { ...o.config, dataDir: release.dir }, logger: log.child({ step: step.name, release: release.id }), cacheDir: path.join(o.config.dataDir, ".cache") });
      // A step that downloads by itself (forecast: .idx files and byte ranges) reports what it read.
      if (report) {
        const mapped = dataset === "forecast" ? forecastLocations(plan, o.config.mirror) : [];
        summary.sources.push(...report.sources.map((s) => ({ ...s, url: upstreamOf(s.url, mapped) })));
        summary.bytesFetched += report.bytesFetched;
      }
    } catch (err) {
      throw new StageError("build", (err as Error).message);
    }
    summary.durations.buildS = seconds(performance.now() - buildStarted);
    if (dataset === "forecast" && previous && !o.force && (await sameRuns(previous.dir, release.dir))) {
      await discardRelease(release.dir);
      release = undefined;
      summary.status = "unchanged";
      summary.counts = previous.manifest?.counts ?? {};
      log.info("no new forecast run; release kept", { release: previous.id });
      return summary;
    }

    // 3. Check.
    const checkStarted = performance.now();
    const check = await (o.serverCheck ?? runServerCheck)(dataset, release.dir);
    summary.durations.checkS = seconds(performance.now() - checkStarted);
    if (!check.ok) throw new StageError("check", `the server's checks refused the release: ${check.reason}`);
    summary.counts = check.counts ?? {};
    const counts = compareCounts(dataset, previous?.manifest?.counts, summary.counts, plan.tolerances, o.allowlist, o.now?.() ?? new Date());
    summary.deltas = counts.deltas;
    summary.allowed = counts.allowed;
    if (counts.violations.length > 0) throw new StageError("check", counts.violations.join("; "));

    // 4. Publish, then prune.
    try {
      await finishRelease(release, { builtAt: check.builtAt ?? new Date().toISOString(), builder: { kind: "nightly" }, sources: versions, args: plan.args, counts: summary.counts });
      await publishRelease(o.config.dataDir, dataset, release.id);
    } catch (err) {
      throw new StageError("publish", (err as Error).message);
    }
    summary.status = "published";
    summary.release = release.id;
    log.info("release published", { release: release.id, previous: previous?.id });
    release = undefined;
    summary.pruned = await pruneReleases(o.config.dataDir, dataset, o.config.keepReleases);
    return summary;
  } catch (err) {
    summary.status = "failed";
    summary.failedAt = err instanceof StageError ? err.stage : "build";
    summary.reason = (err as Error).message;
    log.error("dataset failed; the previous release keeps serving", { stage: summary.failedAt, reason: summary.reason, release: previous?.id });
    // The assembly, or the finished release if publishing it failed (it is not current).
    if (release) for (const dir of [release.dir, release.finalDir]) await discardRelease(dir).catch(() => undefined);
    return summary;
  } finally {
    summary.durations.totalS = seconds(performance.now() - started);
  }
}

/** Runs every configured dataset; never throws for a dataset's failure (see the summaries). */
export async function runNightly(o: NightlyOptions): Promise<DatasetSummary[]> {
  const names = DATASET_NAMES.filter((n) => o.nightly.datasets[n] && (!o.only || o.only.includes(n)));
  const out: DatasetSummary[] = [];
  for (const name of names) out.push(await runDataset(name, o));
  return out;
}
