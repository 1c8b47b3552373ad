/**
 * SYNOP decoding: exceptions over every report of the corpus, the share of section 1 and 3 groups
 * decoded per file (the Argentine OGIMET file of 17,671 reports is the yardstick), the unread groups listed,
 * and decode speed (plain loop and tinybench; the baseline of the ratio is splitting the same
 * reports into groups, the least any decoder must do). Setup is untimed.
 *   npx tsx bench/synop-decode.bench.ts
 */
import path from "node:path";
import { Bench } from "tinybench";
import { decodeSynop } from "../pipeline/stations/synop/decode.ts";
import { allReports, corpusDir, measureCorpusRate, MiB } from "./stations-corpus.ts";

const { dir, shared } = corpusDir("synop");
console.log(`corpus: ${shared ? "shared data" : "embedded copies"} (${dir.split(path.sep).slice(-2).join("/")})`);

const reports = (await allReports(dir)).filter((r) => r.family === "SYNOP");
let thrown = 0;
let internal = 0;
for (const r of reports) {
  try {
    const d = decodeSynop(r.text);
    if (d.unread.some((u) => u.reason.startsWith("decoder error"))) internal++;
  } catch {
    thrown++;
  }
}
console.log("exceptions over every SYNOP report:");
console.table([{ reports: reports.length, thrown, "internal errors caught": internal }]);

// Speed over every SYNOP of the corpus, first, before anything else fills the heap: one warm-up
// pass, then 5 timed passes.
const texts = reports.map((r) => r.text);
const { passes, perCpuSecond } = measureCorpusRate(texts, decodeSynop);

// Decode share of section 1 and 3 groups, per file and over all (the Argentine OGIMET file is
// the yardstick: at least 99.9 %).
const unread = new Map<string, number>();
const perFile = new Map<string, { reports: number; seen: number; read: number }>();
for (const r of reports) {
  const d = decodeSynop(r.text);
  const f = perFile.get(r.file) ?? { reports: 0, seen: 0, read: 0 };
  f.reports++;
  f.seen += d.groupsSeen;
  f.read += d.groupsRead;
  perFile.set(r.file, f);
  for (const u of d.unread) {
    const key = `${u.reason}: ${u.group}`;
    unread.set(key, (unread.get(key) ?? 0) + 1);
  }
}
const all = [...perFile.values()].reduce((a, b) => ({ reports: a.reports + b.reports, seen: a.seen + b.seen, read: a.read + b.read }), { reports: 0, seen: 0, read: 0 });
console.log("\ngroup decode share (sections 1 and 3):");
console.table([...[...perFile].map(([file, f]) => ({ file, ...f })), { file: "all", ...all }].map((f) => ({ file: f.file, reports: f.reports, groups: f.seen, decoded: f.read, "share %": ((f.read / Math.max(1, f.seen)) * 100).toFixed(3) })));
console.log("unread groups (reason: group, count):");
for (const [k, n] of [...unread].sort((a, b) => b[1] - a[1]).slice(0, 60)) console.log(`  ${k}  x${n}`);

let k = 0;
const bench = new Bench({ time: 2000, warmupTime: 500 });
bench.add("split into groups (baseline)", () => {
  texts[k++ % texts.length]!.split(" ");
});
bench.add("ours decodeSynop", () => {
  decodeSynop(texts[k++ % texts.length]!);
});
await bench.run();
const base = bench.tasks[0]!.result as unknown as { latency: { mean: number } };
console.log("\ndecode speed (one report per op):");
console.table(bench.tasks.map((t) => {
  const r = t.result as unknown as { latency: { mean: number; p99: number } };
  return { task: t.name, "reports/s (1/mean)": Math.round(1000 / r.latency.mean), "mean µs": (r.latency.mean * 1000).toFixed(2), "p99 µs": (r.latency.p99 * 1000).toFixed(2), "vs baseline": (base.latency.mean / r.latency.mean).toFixed(3) };
}));
console.log(`single-core loop: median ${Math.round(passes[2]!)} reports/s wall clock (min ${Math.round(passes[0]!)}, max ${Math.round(passes[4]!)}), ${Math.round(perCpuSecond)} reports per CPU-second over ${texts.length} reports (every SYNOP of the corpus); heap used ${(process.memoryUsage().heapUsed / MiB).toFixed(1)} MiB`);
