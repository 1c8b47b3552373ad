/**
 * Which runs the inputs hold (sample files) or which cycle to ingest and where its files are
 * (per-cycle upstream layouts). A mirror may keep NOMADS's tree (`gfs.YYYYMMDD/HH/atmos/...`)
 * or put the files side by side (`gfs.tHHz.pgrb2.0p25.fFFF`); both are accepted. In the flat
 * layout the file names carry no date, so the run is read from the files' inventories.
 */
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { MissingInputError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";
import type { GribCodec } from "./grib-codec.ts";
import type { GribSource } from "./grib-source.ts";
import type { ModelDomain } from "./models/types.ts";

/** Reference times found in the files (from their .idx, else by scanning), newest first. */
export async function findRuns(files: readonly string[], source: GribSource, codec: GribCodec): Promise<Date[]> {
  const times = new Set<number>();
  for (const file of files) {
    if (!(await source.exists(file))) continue;
    const inventory = await source.inventory(file);
    if (inventory) for (const e of inventory) times.add(e.referenceTime.getTime());
    else for (const f of codec.scan(await source.whole(file), source.locate(file))) times.add(f.referenceTime.getTime());
  }
  if (times.size === 0) throw new MissingInputError(files.map((f) => source.locate(f)).join(", "), "GRIB files of the model");
  return [...times].sort((a, b) => b - a).map((t) => new Date(t));
}

export interface ResolvedRun {
  run: Date;
  /** The run's files in the layout found, one per wanted step (some may be missing). */
  files: string[];
  layout: "tree" | "flat" | "directory";
}

/** Files named `name` up to four levels below `dir` (paths relative to `dir`, '/'-separated). */
async function findNamed(dir: string, name: string, depth = 4, prefix = ""): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(path.join(dir, prefix), { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if ((e.isFile() || e.isSymbolicLink()) && e.name === name) out.push(rel);
    else if (e.isDirectory() && depth > 0) out.push(...(await findNamed(dir, name, depth - 1, rel)));
  }
  return out;
}

async function searchLocal(domain: ModelDomain, steps: readonly number[], requested: Date | "latest", source: GribSource, codec: GribCodec): Promise<ResolvedRun[]> {
  const found: ResolvedRun[] = [];
  for (const hour of domain.runHours) {
    if (requested !== "latest" && hour !== requested.getUTCHours()) continue;
    const names = domain.files(new Date(Date.UTC(2000, 0, 1, hour)), steps).map((f) => path.posix.basename(f.path));
    for (const root of source.roots) {
      for (const rel of (await findNamed(root, names[0]!)).filter((r) => r.includes("/"))) {
        const [newest] = await findRuns([rel], source, codec);
        if (!newest || (requested !== "latest" && newest.getTime() !== requested.getTime())) continue;
        const dir = path.posix.dirname(rel);
        found.push({ run: newest, files: names.map((n) => `${dir}/${n}`), layout: "directory" });
      }
    }
  }
  return found;
}

/** The first of the files (or its .idx) that exists, or undefined. */
async function firstPresent(files: readonly string[], source: GribSource): Promise<string | undefined> {
  for (const f of files) {
    if ((await source.exists(`${f}.idx`)) || (await source.exists(f))) return f;
  }
  return undefined;
}

/**
 * Finds the run to ingest: the one asked for, or with `latest` the newest cycle found, probing
 * back from `now` (`hoursBack` hours). Probes the first few step files of each cycle in both
 * layouts.
 */
export async function resolveRun(
  domain: ModelDomain,
  steps: readonly number[],
  requested: Date | "latest",
  source: GribSource,
  codec: GribCodec,
  logger: Logger,
  options: { now?: Date; hoursBack?: number } = {},
): Promise<ResolvedRun> {
  const now = options.now ?? new Date();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), now.getUTCHours()));
  const cycles: Date[] = [];
  if (requested !== "latest") cycles.push(requested);
  else {
    for (let back = 0; back <= (options.hoursBack ?? 48); back++) {
      const t = new Date(start.getTime() - back * 3600_000);
      if (domain.runHours.includes(t.getUTCHours())) cycles.push(t);
    }
  }
  const probe = steps.slice(0, 3);
  // The tree layout names the date: the first cycle found is the newest.
  for (const cycle of cycles) {
    const tree = domain.files(cycle, steps).map((f) => f.path);
    if (await firstPresent(tree.slice(0, probe.length), source)) {
      logger.info("run found", { runTime: cycle.toISOString(), layout: "tree" });
      return { run: cycle, files: tree, layout: "tree" };
    }
  }
  // The flat layout: one candidate per cycle hour; the date comes from the file itself.
  const found: ResolvedRun[] = [];
  for (const hour of domain.runHours) {
    const cycle = requested !== "latest" ? requested : new Date(Date.UTC(2000, 0, 1, hour));
    if (requested !== "latest" && hour !== requested.getUTCHours()) continue;
    const flat = domain.files(cycle, steps).map((f) => path.posix.basename(f.path));
    const present = await firstPresent(flat.slice(0, probe.length), source);
    if (!present) continue;
    const [newest] = await findRuns([present], source, codec);
    if (newest && (requested === "latest" || newest.getTime() === requested.getTime())) found.push({ run: newest, files: flat, layout: "flat" });
  }
  // A local mirror in another layout: find the first step's file anywhere below the roots; the
  // run's other files are expected beside it.
  if (!source.remote) found.push(...(await searchLocal(domain, steps, requested, source, codec)));
  found.sort((a, b) => b.run.getTime() - a.run.getTime());
  if (found[0]) {
    logger.info("run found", { runTime: found[0].run.toISOString(), layout: "flat" });
    return found[0];
  }
  const example = domain.files(cycles[0] ?? start, steps)[0]?.path ?? "";
  throw new MissingInputError(source.locate(example), requested === "latest" ? `a run of ${domain.id} (cycles of the last ${options.hoursBack ?? 48} hours in NOMADS's layout, or files side by side)` : `run ${requested.toISOString()} of ${domain.id}`);
}
