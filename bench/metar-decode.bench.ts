/**
 * METAR decoding: exceptions over every report of the corpus, field agreement with the decoded
 * values aviationweather.gov published with each report (aviationweather-na-2025-09-09_12.csv:
 * temp_c, dewpoint_c, wind_dir_deg, wind_kts, gust_kts, vis_sm, altimeter_hpa) for our decoder and
 * for metar-taf-parser, and decode speed of both on the same reports (metar-taf-parser is the
 * baseline of the ratio). Setup (reading, splitting) is untimed.
 *   npx tsx bench/metar-decode.bench.ts
 */
import path from "node:path";
import { parseMetar } from "metar-taf-parser";
import { Bench } from "tinybench";
import { readCsvRows } from "../pipeline/stations/ingest/csv-rows.ts";
import { isAviationWeatherCsv } from "../pipeline/stations/ingest/split.ts";
import { decodeMetar, preciseTemperature } from "../pipeline/stations/metar/decode.ts";
import { HPA_PER_INHG } from "../pipeline/stations/metar/groups.ts";
import { allReports, corpusDir, filesUnder, measureCorpusRate, MiB, readText } from "./stations-corpus.ts";

const { dir, shared } = corpusDir("metar");
console.log(`corpus: ${shared ? "shared data" : "embedded copies"} (${dir.split(path.sep).slice(-2).join("/")})`);

// --- Agreement with aviationweather.gov's decoded columns -------------------------------------
interface Row { raw: string; temp?: number; dewp?: number; dir?: number; speed?: number; gust?: number; visSm?: number; altHpa?: number }
interface Decoded { temp?: number; dewp?: number; dir?: number; speed?: number; gust?: number; visSm?: number; altHpa?: number }
const FIELDS = ["temp", "dewp", "dir", "speed", "gust", "visSm", "altHpa"] as const;
type Field = (typeof FIELDS)[number];
// Tolerances: the CSV rounds miles to 2 decimals (1/16 -> 0.06) and converts inHg to hPa with
// its own rounding; a difference below one unit of the report's own resolution is agreement.
const TOLERANCE: Record<Field, number> = { temp: 0.05, dewp: 0.05, dir: 0, speed: 0, gust: 0, visSm: 0.011, altHpa: 0.35 };

// Every aviationweather CSV of the corpus (aviationweather-na-2025-09-09_12.csv in ours), with
// the column names of the two export styles (this CSV's, and the cache files' `temp_c,
// dewpoint_c, wind_dir_degrees, wind_speed_kt, wind_gust_kt, visibility_statute_mi, altim_in_hg`).
const ALIASES: Record<Field, string[]> = {
  temp: ["temp_c"],
  dewp: ["dewpoint_c"],
  dir: ["wind_dir_deg", "wind_dir_degrees"],
  speed: ["wind_kts", "wind_speed_kt"],
  gust: ["gust_kts", "wind_gust_kt"],
  visSm: ["vis_sm", "visibility_statute_mi"],
  altHpa: ["altimeter_hpa", "altim_in_hg"],
};
const num = (v: string | undefined): number | undefined => (v === undefined || v === "" || v === "NA" || !Number.isFinite(Number(v)) ? undefined : Number(v));
const rows: Row[] = [];
const csvFiles: string[] = [];
for (const file of filesUnder(dir)) {
  const text = readText(file);
  if (!(await isAviationWeatherCsv(text))) continue;
  csvFiles.push(path.basename(file));
  const records = await readCsvRows(text, path.basename(file));
  const headerAt = records.findIndex((r) => r.fields.includes("raw_text"));
  const header = records[headerAt]!.fields;
  const colOf = (f: Field): number => header.findIndex((h) => ALIASES[f].includes(h));
  const cols = Object.fromEntries(FIELDS.map((f) => [f, colOf(f)])) as Record<Field, number>;
  const inHg = header[cols.altHpa] === "altim_in_hg";
  for (const { fields: f } of records.slice(headerAt + 1)) {
    if (f.length === 1 && !f[0]!.trim()) continue;
    const row: Row = { raw: f[header.indexOf("raw_text")]! };
    for (const field of FIELDS) {
      let v = cols[field] >= 0 ? num(f[cols[field]]) : undefined;
      if (field === "altHpa" && inHg && v !== undefined) v = Math.round(v * HPA_PER_INHG * 10) / 10;
      if (v !== undefined) row[field] = v;
    }
    rows.push(row);
  }
}
console.log(`published decodes: ${csvFiles.join(", ")} (${rows.length} reports)`);

// Plain loop over the corpus (one warm-up pass, then 5 timed passes): the steady single-core rate.
const texts = rows.map((r) => r.raw);
const { passes, perCpuSecond } = measureCorpusRate(texts, decodeMetar);
console.log(`single-core loop, ours (measured first, before the comparisons fill the heap): median ${Math.round(passes[2]!)} reports/s wall clock (min ${Math.round(passes[0]!)}, max ${Math.round(passes[4]!)}), ${Math.round(perCpuSecond)} reports per CPU-second over ${texts.length} reports; heap used ${(process.memoryUsage().heapUsed / MiB).toFixed(1)} MiB`);

// --- Exceptions over every report -------------------------------------------------------------
const reports = (await allReports(dir)).filter((r) => r.family === "METAR");
let ourExceptions = 0;
let ourInternalErrors = 0;
let theirExceptions = 0;
let unreadReports = 0;
for (const r of reports) {
  try {
    const d = decodeMetar(r.text);
    if (d.unread.some((u) => u.reason.startsWith("decoder error"))) ourInternalErrors++;
    if (d.unread.length > 0) unreadReports++;
  } catch {
    ourExceptions++;
  }
  try {
    parseMetar(r.text);
  } catch {
    theirExceptions++;
  }
}
console.log("exceptions over every METAR report:");
console.table([{ reports: reports.length, "ours: thrown": ourExceptions, "ours: internal errors caught": ourInternalErrors, "ours: reports with an unread group": unreadReports, "metar-taf-parser: thrown": theirExceptions }]);

function ours(raw: string): Decoded {
  const d = decodeMetar(raw);
  const out: Decoded = {};
  const t = preciseTemperature(d.temperatureC, d.remarks?.temperatureC);
  const dp = preciseTemperature(d.dewpointC, d.remarks?.dewpointC);
  if (t !== undefined) out.temp = t;
  if (dp !== undefined) out.dewp = dp;
  if (d.wind?.directionDeg !== undefined) out.dir = d.wind.directionDeg;
  // The CSV gives whole knots: speeds converted from MPS or KMH are compared rounded.
  if (d.wind?.speedKt !== undefined) out.speed = d.wind.unit === "KT" ? d.wind.speedKt : Math.round(d.wind.speedKt);
  if (d.wind?.gustKt !== undefined) out.gust = d.wind.unit === "KT" ? d.wind.gustKt : Math.round(d.wind.gustKt);
  const v = d.visibility;
  if (v?.statuteMiles !== undefined) out.visSm = v.statuteMiles;
  else if (v?.metres !== undefined) out.visSm = v.metres / 1609.344;
  if (d.altimeterHpa !== undefined) out.altHpa = d.altimeterHpa;
  return out;
}

function theirs(raw: string): Decoded | undefined {
  let m;
  try {
    m = parseMetar(raw);
  } catch {
    return undefined;
  }
  const out: Decoded = {};
  if (m.temperature !== undefined) out.temp = m.temperature;
  if (m.dewPoint !== undefined) out.dewp = m.dewPoint;
  // metar-taf-parser gives the body temperature; the precise T group is a remark it also decodes.
  for (const rmk of m.remarks as unknown as Array<{ type: string; temperature?: number; dewPoint?: number }>) {
    if (rmk.type === "HourlyTemperatureDewPoint") {
      if (rmk.temperature !== undefined) out.temp = rmk.temperature;
      if (rmk.dewPoint !== undefined) out.dewp = rmk.dewPoint;
    }
  }
  if (m.wind) {
    if (m.wind.degrees !== undefined) out.dir = m.wind.degrees;
    const k = m.wind.unit === "MPS" ? 1 / 0.514444 : m.wind.unit === "KM/H" ? 1 / 1.852 : 1;
    out.speed = Math.round(m.wind.speed * k);
    if (m.wind.gust !== undefined) out.gust = Math.round(m.wind.gust * k);
  }
  if (m.visibility) out.visSm = m.visibility.unit === "SM" ? m.visibility.value : m.visibility.value / 1609.344;
  if (m.altimeter) out.altHpa = m.altimeter.unit === "inHg" ? Math.round(m.altimeter.value * HPA_PER_INHG * 10) / 10 : m.altimeter.value;
  return out;
}

// A field is compared where the CSV gives a value; "NA" in the CSV (10SM and more, VRB, no gust)
// is compared too: agreement then means the decoder has no value either.
function agree(field: Field, expected: number | undefined, got: number | undefined): boolean {
  if (field === "visSm" && expected === undefined) return true; // the CSV writes NA for 10SM and above
  if (expected === undefined || got === undefined) return expected === got;
  return Math.abs(expected - got) <= TOLERANCE[field] + 1e-9;
}

function compare(name: string, decode: (raw: string) => Decoded | undefined): void {
  const agreeCount: Record<string, number> = {};
  const maxDiff: Record<string, number> = {};
  const disagreements: Record<string, string[]> = {};
  let failed = 0;
  for (const row of rows) {
    const d = decode(row.raw);
    if (!d) failed++;
    for (const f of FIELDS) {
      const e = row[f];
      const g = d?.[f];
      if (e !== undefined && g !== undefined) maxDiff[f] = Math.max(maxDiff[f] ?? 0, Math.abs(e - g));
      if (d && agree(f, row[f], d[f])) agreeCount[f] = (agreeCount[f] ?? 0) + 1;
      else (disagreements[f] ??= []).push(`${f}: csv ${row[f] ?? "NA"} vs ${d ? (d[f] ?? "none") : "threw"}  ${row.raw}`);
    }
  }
  console.log(`\n${name}: agreement with aviationweather.gov over ${rows.length} reports (${failed} threw)`);
  console.table(FIELDS.map((f) => ({ field: f, agree: agreeCount[f] ?? 0, pct: (((agreeCount[f] ?? 0) / rows.length) * 100).toFixed(3), disagree: disagreements[f]?.length ?? 0, "max |diff| where both": (maxDiff[f] ?? 0).toFixed(3), tolerance: TOLERANCE[f] })));
  for (const f of FIELDS) for (const line of (disagreements[f] ?? []).slice(0, 40)) console.log("  " + line);
}
compare("ours", ours);
compare("metar-taf-parser", theirs);

// --- Speed -------------------------------------------------------------------------------------
let k = 0;
const bench = new Bench({ time: 2000, warmupTime: 500 });
bench.add("metar-taf-parser parseMetar (baseline)", () => {
  try {
    parseMetar(texts[k++ % texts.length]!);
  } catch {
    /* counted above */
  }
});
bench.add("ours decodeMetar", () => {
  decodeMetar(texts[k++ % texts.length]!);
});
await bench.run();
const base = bench.tasks[0]!.result!;
console.log("\ndecode speed (one report per op, cycling over the CSV's reports):");
console.table(bench.tasks.map((t) => {
  const r = t.result as unknown as { latency: { mean: number; p99: number } };
  const b = base as unknown as { latency: { mean: number } };
  return { task: t.name, "reports/s (1/mean)": Math.round(1000 / r.latency.mean), "mean µs": (r.latency.mean * 1000).toFixed(2), "p99 µs": (r.latency.p99 * 1000).toFixed(2), "vs baseline": (b.latency.mean / r.latency.mean).toFixed(2) };
}));
