/**
 * Forward geocoding: per-query latency (median, p99) of the places index on the embedded default
 * (GeoNames cities500, ~200k places) for a mixed, seeded query set (exact, prefix, typo,
 * qualified, non-Latin), compared in the same run with a naive scan over the folded names and
 * with MiniSearch (the popular npm full-text library) indexing the same names. Also: index bytes,
 * load time and heap, and pipeline rows/s with peak RSS on cities15000 (when the shared data is
 * present) and cities500.
 *   npx tsx bench/geocode.bench.ts           (add --expose-gc through node for exact heap deltas)
 */
import { spawnSync } from "node:child_process";
import { existsSync, promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import MiniSearch from "minisearch";
import { Bench } from "tinybench";
import { DATASETS } from "../datasets/catalog.ts";
import { readConfig } from "../datasets/common/config.ts";
import { silentLogger } from "../datasets/common/log.ts";
import { EMBEDDED_DIR, PROJECT_ROOT, SHARED_DATA_DIR } from "../datasets/common/paths.ts";
import { allowedEdits, codePointLength, foldName } from "../datasets/places/fold.ts";
import { openPlacesFile } from "../datasets/places/index-reader.ts";
import { openSource, readLines } from "../pipeline/common/source.ts";
import { buildDefault } from "../pipeline/build-default.ts";
import { locateDataset } from "../datasets/releases/locate.ts";
import { codePoints, osaDistanceWithin } from "../server/places/edit-distance.ts";
import { PlacesData } from "../server/places/places-data.ts";
import { mulberry32 } from "../datasets/common/prng.ts";

const MiB = 2 ** 20;
const gc = (globalThis as { gc?: () => void }).gc;
const random = mulberry32(20261122);
const pick = <T>(a: readonly T[]): T => a[Math.floor(random() * a.length)]!;

// --- Setup (untimed): build the embedded default and read the raw rows --------------------------
const dataDir = path.join(PROJECT_ROOT, ".cache", "bench-data");
const config = readConfig({ GEODATA_DATA_DIR: dataDir });
await buildDefault(config, silentLogger, { only: ["places"] });
const indexFile = path.join((await locateDataset(dataDir, "places")).dir, DATASETS.places.file);

interface RawPlace {
  name: string;
  ascii: string;
  alternates: string[];
  cc: string;
  admin1: string;
}
const raw: RawPlace[] = [];
for await (const { line } of readLines((await openSource(path.join(EMBEDDED_DIR, "geonames", "cities500.zip"))).stream)) {
  const f = line.split("\t");
  if (f.length === 19) raw.push({ name: f[1]!, ascii: f[2]!, alternates: f[3] ? f[3].split(",") : [], cc: f[8]!, admin1: f[10]! });
}

// --- Load: bytes, time, heap --------------------------------------------------------------------
gc?.();
const before = process.memoryUsage();
const t0 = performance.now();
const data = new PlacesData(openPlacesFile(indexFile).index);
const bytes = { byteLength: (await fs.stat(indexFile)).size };
const loadMs = performance.now() - t0;
gc?.();
const after = process.memoryUsage();
console.log(`places index: ${(bytes.byteLength / MiB).toFixed(1)} MiB, ${data.index.placeCount} places, ${data.index.keyCount} keys, ${data.index.typoKeyCount} typo keys`);
console.log(`open (header, section table, small parts; the rest is read per query): ${loadMs.toFixed(0)} ms; heap +${((after.heapUsed - before.heapUsed) / MiB).toFixed(1)} MiB, array buffers +${((after.arrayBuffers - before.arrayBuffers) / MiB).toFixed(1)} MiB${gc ? "" : " (no --expose-gc: approximate)"}`);

// --- The mixed query set (seeded) ---------------------------------------------------------------
type Kind = "exact" | "prefix" | "typo" | "qualified" | "non-Latin";
const countryName = new Map(data.index.areas.countries.map((c) => [c.iso2, c.names.EN]));
const nonLatin = raw.flatMap((p) => p.alternates.filter((n) => /[^\u0000-\u024f\s\p{P}]/u.test(n)));
function typo(word: string): string {
  const cps = [...word];
  const i = 1 + Math.floor(random() * (cps.length - 2));
  const op = Math.floor(random() * 4);
  if (op === 0) cps[i] = "x";
  else if (op === 1) cps.splice(i, 1);
  else if (op === 2) cps.splice(i, 0, "e");
  else [cps[i - 1], cps[i]] = [cps[i]!, cps[i - 1]!];
  return cps.join("");
}
const queries: { kind: Kind; q: string }[] = [];
for (let i = 0; i < 1000; i++) {
  const p = pick(raw);
  queries.push({ kind: "exact", q: p.name });
  queries.push({ kind: "prefix", q: p.ascii.slice(0, 3 + Math.floor(random() * 3)) });
  const long = pick(raw.filter((r) => r.ascii.length >= 6 && r.ascii.length <= 12).slice(0, 50_000));
  queries.push({ kind: "typo", q: typo(long.ascii) });
  queries.push({ kind: "qualified", q: random() < 0.5 ? `${p.name}, ${countryName.get(p.cc) ?? p.cc}` : `${p.name}, ${p.cc}` });
  queries.push({ kind: "non-Latin", q: pick(nonLatin) });
}

// --- Per-query latency of the index -------------------------------------------------------------
// Wall time (hrtime) and the thread's CPU time (getrusage, µs resolution) per query: on a shared,
// oversubscribed machine the wall-clock tail is mostly time spent descheduled; CPU time is what
// the query itself costs.
for (const { q } of queries) data.search(q, 10, 0); // warm-up
const wallByKind = new Map<Kind | "all", number[]>();
const cpuByKind = new Map<Kind | "all", number[]>();
const push = (m: Map<Kind | "all", number[]>, k: Kind | "all", v: number): void => {
  const list = m.get(k) ?? [];
  list.push(v);
  m.set(k, list);
};
for (let round = 0; round < 3; round++) {
  for (const { kind, q } of queries) {
    const c = process.cpuUsage();
    const s = process.hrtime.bigint();
    data.search(q, 10, 0);
    const us = Number(process.hrtime.bigint() - s) / 1000;
    const cu = process.cpuUsage(c);
    for (const k of [kind, "all"] as const) {
      push(wallByKind, k, us);
      push(cpuByKind, k, cu.user + cu.system);
    }
  }
}
const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const sortedOf = (m: Map<Kind | "all", number[]>, k: Kind | "all"): number[] => [...m.get(k)!].sort((a, b) => a - b);
console.log(`load average while measuring: ${os.loadavg().map((l) => l.toFixed(1)).join(" ")} on ${os.cpus().length} CPUs`);
console.table(
  [...wallByKind.keys()].map((kind) => {
    const w = sortedOf(wallByKind, kind);
    const c = sortedOf(cpuByKind, kind);
    return {
      kind,
      queries: w.length,
      "wall median µs": pct(w, 0.5).toFixed(1),
      "wall p99 µs": pct(w, 0.99).toFixed(1),
      "CPU median µs": pct(c, 0.5).toFixed(0),
      "CPU p99 µs": pct(c, 0.99).toFixed(0),
      "CPU max µs": c[c.length - 1]!.toFixed(0),
    };
  }),
);

// --- Baselines ----------------------------------------------------------------------------------
// Naive scan: every folded name of every place, exact/prefix, and bounded edit distance on the
// main and ASCII names, then the same (tier, rank) sort. Rank = the index's place order.
const rankOf = new Map<string, number>();
for (let i = 0; i < data.index.placeCount; i++) rankOf.set(`${data.index.record(i).name}|${data.index.record(i).geonameId}`, i);
const flatNames: string[] = [];
const flatOwner: number[] = [];
const flatPrimary: boolean[] = [];
raw.forEach((p, i) => {
  [p.name, p.ascii, ...p.alternates].forEach((n, j) => {
    flatNames.push(foldName(n));
    flatOwner.push(i);
    flatPrimary.push(j < 2);
  });
});
function naiveSearch(text: string): number[] {
  const q = foldName(text.split(",")[0]!);
  const len = codePointLength(q);
  const edits = allowedEdits(len);
  const qcp = codePoints(q);
  const best = new Map<number, number>();
  for (let i = 0; i < flatNames.length; i++) {
    const n = flatNames[i]!;
    let tier = 0;
    if (n === q) tier = 3;
    else if (n.startsWith(q)) tier = 2;
    else if (edits > 0 && flatPrimary[i] && Math.abs(n.length - q.length) <= edits && osaDistanceWithin(qcp, codePoints(n), edits)) tier = 1;
    if (tier > (best.get(flatOwner[i]!) ?? 0)) best.set(flatOwner[i]!, tier);
  }
  return [...best.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 10).map(([p]) => p);
}

gc?.();
const msBefore = process.memoryUsage().heapUsed;
const msStart = performance.now();
const mini = new MiniSearch<{ id: number; name: string; alt: string }>({
  fields: ["name", "alt"],
  storeFields: [],
  searchOptions: { prefix: true, fuzzy: (term) => allowedEdits(term.length), boost: { name: 2 } },
});
mini.addAll(raw.map((p, id) => ({ id, name: `${p.name} ${p.ascii}`, alt: p.alternates.join(" ") })));
const msBuildS = (performance.now() - msStart) / 1000;
gc?.();
console.log(`MiniSearch index: built in ${msBuildS.toFixed(1)} s, heap +${((process.memoryUsage().heapUsed - msBefore) / MiB).toFixed(0)} MiB`);

let qi = 0;
let ni = 0;
let mi = 0;
const bench = new Bench({ time: 3000, warmup: true });
bench
  .add("places index (mixed set)", () => {
    data.search(queries[qi++ % queries.length]!.q, 10, 0);
  })
  .add("baseline: naive scan", () => {
    naiveSearch(queries[ni++ % queries.length]!.q);
  }, { })
  .add("MiniSearch (prefix + fuzzy)", () => {
    mini.search(queries[mi++ % queries.length]!.q).slice(0, 10);
  });
await bench.run();
const base = bench.tasks[1]!.result as unknown as { latency: { mean: number; p50: number; p99: number }; throughput: { mean: number } };
console.table(
  bench.tasks.map((t) => {
    const r = t.result as unknown as { latency: { mean: number; p50: number; p99: number }; throughput: { mean: number } };
    return {
      task: t.name,
      "ops/s": Math.round(r.throughput.mean),
      "median µs": (r.latency.p50 * 1000).toFixed(1),
      "mean µs": (r.latency.mean * 1000).toFixed(1),
      "p99 µs": (r.latency.p99 * 1000).toFixed(1),
      "× naive scan time": (r.latency.mean / base.latency.mean).toFixed(4),
    };
  }),
);
console.log(`heap used at the end: ${(process.memoryUsage().heapUsed / MiB).toFixed(0)} MiB`);

// --- Pipeline throughput and peak RSS -----------------------------------------------------------
// Each dump is built in a child process running only the places step (this file with --child),
// so that its peak RSS is the step's own.
const tsx = path.join(PROJECT_ROOT, "node_modules", "tsx", "dist", "cli.mjs");
const geo = path.join(EMBEDDED_DIR, "geonames");
const dumps: [string, string][] = [["cities500", path.join(geo, "cities500.zip")]];
const shared15000 = path.join(SHARED_DATA_DIR, "geonames", "cities15000.zip");
if (existsSync(shared15000)) dumps.unshift(["cities15000", shared15000]);
else console.log("cities15000: shared data absent, skipped");
const rows: Record<string, unknown>[] = [];
for (const [name, file] of dumps) {
  const out = await fs.mkdtemp(path.join(os.tmpdir(), "places-bench-"));
  const r = spawnSync(process.execPath, [tsx, path.join(PROJECT_ROOT, "bench", "geocode-pipeline-child.ts"),
    "--countries", path.join(geo, "countryInfo.txt.gz"), "--admin1", path.join(geo, "admin1CodesASCII.txt.gz"), "--places", file], {
    cwd: PROJECT_ROOT, env: { ...process.env, GEODATA_DATA_DIR: out }, encoding: "utf8",
  });
  await fs.rm(out, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`pipeline failed on ${name}: ${r.stderr.slice(-2000)}`);
  const built = JSON.parse(r.stdout.trim().split("\n").pop()!) as { places: number; names: number; seconds: number; peakRssMb: number; indexBytes: number };
  rows.push({ dump: name, places: built.places, names: built.names, "wall s": built.seconds.toFixed(1), "places/s": Math.round(built.places / built.seconds), "names/s": Math.round(built.names / built.seconds), "peak RSS MiB": built.peakRssMb, "index MiB": (built.indexBytes / MiB).toFixed(1) });
}
console.table(rows);
