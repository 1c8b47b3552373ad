/**
 * Report corpora for the station benches: every file under the shared data's `metar/` and
 * `synop/` (SHARED_DATA_DIR) when present, else the embedded default's copies. Setup only.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { EMBEDDED_DIR, SHARED_DATA_DIR } from "../datasets/common/paths.ts";
import { splitReports, type ReportText } from "../pipeline/stations/ingest/split.ts";

export function corpusDir(family: "metar" | "synop"): { dir: string; shared: boolean } {
  const shared = path.join(SHARED_DATA_DIR, family);
  if (existsSync(shared)) return { dir: shared, shared: true };
  return { dir: path.join(EMBEDDED_DIR, family), shared: false };
}

export function readText(file: string): string {
  let buf = readFileSync(file);
  if (file.endsWith(".gz")) buf = gunzipSync(buf);
  return buf.toString("latin1");
}

export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !/station_list\.csv$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** Every report of every file under the directory, as the pipeline splits them. */
export async function allReports(dir: string): Promise<(ReportText & { file: string })[]> {
  const out: (ReportText & { file: string })[] = [];
  for (const file of filesUnder(dir)) for (const r of await splitReports(readText(file), path.basename(file))) out.push({ ...r, file: path.basename(file) });
  return out;
}

export const MiB = 2 ** 20;

/** Single-core decode rate over a corpus: one warm-up pass, then 5 timed passes. */
export interface CorpusRate {
  /** Reports per second of wall clock over the 5 passes, ascending. */
  passes: number[];
  /** Reports per CPU-second of this process: on a shared machine the wall-clock rate falls with
   * the load, while this is the rate of one core actually running us. */
  perCpuSecond: number;
}

export function measureCorpusRate(texts: readonly string[], decode: (text: string) => unknown): CorpusRate {
  for (const t of texts) decode(t);
  const passes: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let rep = 0; rep < 5; rep++) {
    const t0 = performance.now();
    for (const t of texts) decode(t);
    passes.push(texts.length / ((performance.now() - t0) / 1000));
  }
  const cpu = process.cpuUsage(cpu0);
  passes.sort((a, b) => a - b);
  return { passes, perCpuSecond: (texts.length * 5) / ((cpu.user + cpu.system) / 1e6) };
}
