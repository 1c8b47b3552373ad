/**
 * Forward geocoding relevance, with GeoNames' own rows as the truth: the most populous places of
 * the embedded cities15000 dump, queried the way people type them, through the places index of
 * the embedded default (cities500 + cities15000). Classes:
 * - exact: the GeoNames name. Truth: the most populous place of cities15000 whose own (GeoNames or
 *   ASCII) name folds to the query, so an alternate name of a bigger place is a hijack.
 * - qualified: "name, country" (the English country name of countryInfo). Truth: the most
 *   populous place of that name in that country.
 * - typo: one seeded edit (substitution, deletion, insertion or adjacent transposition) of the
 *   folded ASCII name; typos that are a name of another cities15000 place are skipped.
 * - prefix3/4/5: the first 3, 4, 5 characters of the GeoNames name (top 5 is what counts), kept
 *   when the place is among the 5 most populous cities15000 places whose own name starts so (for
 *   "Cha", Chongqing, Chengdu... cannot all be in a top 5).
 * - native: an alternate name in the script of the place's country (Москва, 東京, القاهرة) that
 *   no more populous cities15000 place carries.
 * Each class reports top-1 and top-5 beside a population-only ranking of the same match set
 * (the index's matches re-ordered by population alone), then per-query latency in process,
 * and the named hijack cases of issue 15 as a checked list.
 *   npm run bench -- relevance [--top N]   (default 1000 most populous places)
 */
import path from "node:path";
import { openEnvelope } from "../datasets/artifact/envelope.ts";
import { DATASETS } from "../datasets/catalog.ts";
import { readConfig } from "../datasets/common/config.ts";
import { silentLogger } from "../datasets/common/log.ts";
import { EMBEDDED_DIR, PROJECT_ROOT } from "../datasets/common/paths.ts";
import { mulberry32 } from "../datasets/common/prng.ts";
import { foldName } from "../datasets/places/fold.ts";
import { PlacesIndex } from "../datasets/places/index-reader.ts";
import { openSource, readLines } from "../pipeline/common/source.ts";
import { buildDefault } from "../pipeline/build-default.ts";
import { locateDataset } from "../datasets/releases/locate.ts";
import { PlacesData } from "../server/places/places-data.ts";
import { promises as fs } from "node:fs";

const topArg = process.argv.indexOf("--top");
const TOP = topArg > 0 ? Number(process.argv[topArg + 1]) : 1000;
const random = mulberry32(20261123);

// --- Setup (untimed) ----------------------------------------------------------------------------
const dataDir = path.join(PROJECT_ROOT, ".cache", "bench-data");
await buildDefault(readConfig({ GEODATA_DATA_DIR: dataDir }), silentLogger, { only: ["places"] });
const indexFile = path.join((await locateDataset(dataDir, "places")).dir, DATASETS.places.file);
const env = openEnvelope(await fs.readFile(indexFile), { magic: DATASETS.places.magic, formatVersion: DATASETS.places.formatVersion, file: indexFile });
const data = new PlacesData(PlacesIndex.from(env.payload));
const ix = data.index;

interface Row {
  id: number;
  name: string;
  ascii: string;
  alternates: string[];
  cc: string;
  population: number;
}
const rows: Row[] = [];
for await (const { line } of readLines((await openSource(path.join(EMBEDDED_DIR, "geonames", "cities15000.zip"))).stream)) {
  const f = line.split("\t");
  if (f.length !== 19) continue;
  rows.push({ id: Number(f[0]), name: f[1]!, ascii: f[2]!, alternates: f[3] ? f[3].split(",") : [], cc: f[8]!, population: Number(f[14]) });
}
rows.sort((a, b) => b.population - a.population || a.id - b.id);
const countryName = new Map<string, string>();
for await (const { line } of readLines((await openSource(path.join(EMBEDDED_DIR, "geonames", "countryInfo.txt.gz"))).stream)) {
  if (line.startsWith("#")) continue;
  const f = line.split("\t");
  if (f.length > 4) countryName.set(f[0]!, f[4]!);
}

/** Most populous cities15000 place per folded own name (rows are in population order). */
const byOwnName = new Map<string, Row>();
const byOwnNameInCountry = new Map<string, Row>();
/** Every folded name (own or alternate) of any cities15000 place, with the most populous carrier. */
const byAnyName = new Map<string, Row>();
for (const r of rows) {
  for (const n of new Set([foldName(r.name), foldName(r.ascii)])) {
    if (!byOwnName.has(n)) byOwnName.set(n, r);
    if (!byOwnNameInCountry.has(`${n}|${r.cc}`)) byOwnNameInCountry.set(`${n}|${r.cc}`, r);
  }
  for (const n of [r.name, r.ascii, ...r.alternates]) {
    const k = foldName(n);
    if (!byAnyName.has(k)) byAnyName.set(k, r);
  }
}

// Scripts of a country's own language(s), for the native-script class.
const SCRIPT_OF: Record<string, RegExp> = {
  Han: /\p{Script=Han}/u, Hangul: /\p{Script=Hangul}/u, Cyrillic: /\p{Script=Cyrillic}/u, Greek: /\p{Script=Greek}/u,
  Hebrew: /\p{Script=Hebrew}/u, Arabic: /\p{Script=Arabic}/u, Thai: /\p{Script=Thai}/u, Devanagari: /\p{Script=Devanagari}/u,
  Bengali: /\p{Script=Bengali}/u, Tamil: /\p{Script=Tamil}/u, Telugu: /\p{Script=Telugu}/u, Kannada: /\p{Script=Kannada}/u,
  Malayalam: /\p{Script=Malayalam}/u, Gujarati: /\p{Script=Gujarati}/u, Gurmukhi: /\p{Script=Gurmukhi}/u, Myanmar: /\p{Script=Myanmar}/u,
  Khmer: /\p{Script=Khmer}/u, Lao: /\p{Script=Lao}/u, Georgian: /\p{Script=Georgian}/u, Armenian: /\p{Script=Armenian}/u,
  Ethiopic: /\p{Script=Ethiopic}/u, Sinhala: /\p{Script=Sinhala}/u, Kana: /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u,
};
const COUNTRY_SCRIPTS: Record<string, string[]> = {
  CN: ["Han"], TW: ["Han"], HK: ["Han"], MO: ["Han"], JP: ["Kana"], KR: ["Hangul"], KP: ["Hangul"],
  RU: ["Cyrillic"], UA: ["Cyrillic"], BY: ["Cyrillic"], BG: ["Cyrillic"], RS: ["Cyrillic"], MK: ["Cyrillic"], KZ: ["Cyrillic"],
  KG: ["Cyrillic"], MN: ["Cyrillic"], TJ: ["Cyrillic"], GR: ["Greek"], CY: ["Greek"], IL: ["Hebrew"],
  SA: ["Arabic"], EG: ["Arabic"], IQ: ["Arabic"], SY: ["Arabic"], JO: ["Arabic"], LB: ["Arabic"], AE: ["Arabic"], KW: ["Arabic"],
  QA: ["Arabic"], BH: ["Arabic"], OM: ["Arabic"], YE: ["Arabic"], LY: ["Arabic"], TN: ["Arabic"], DZ: ["Arabic"], MA: ["Arabic"],
  SD: ["Arabic"], IR: ["Arabic"], AF: ["Arabic"], PK: ["Arabic"], PS: ["Arabic"], TH: ["Thai"], NP: ["Devanagari"],
  IN: ["Devanagari", "Bengali", "Tamil", "Telugu", "Kannada", "Malayalam", "Gujarati", "Gurmukhi"], BD: ["Bengali"],
  LK: ["Sinhala", "Tamil"], MM: ["Myanmar"], KH: ["Khmer"], LA: ["Lao"], GE: ["Georgian"], AM: ["Armenian"], ET: ["Ethiopic"],
};

function typo(word: string): string {
  const cps = [...word];
  const i = Math.floor(random() * cps.length);
  const letter = "abcdefghijklmnopqrstuvwxyz"[Math.floor(random() * 26)]!;
  const op = Math.floor(random() * 4);
  if (op === 0) cps[i] = letter;
  else if (op === 1) cps.splice(i, 1);
  else if (op === 2) cps.splice(i, 0, letter);
  else if (i > 0) [cps[i - 1], cps[i]] = [cps[i]!, cps[i - 1]!];
  else [cps[0], cps[1]] = [cps[1]!, cps[0]!];
  return cps.join("");
}

// --- Query sets ---------------------------------------------------------------------------------
type Kind = "exact" | "qualified" | "typo" | "prefix3" | "prefix4" | "prefix5" | "native";
const KINDS: Kind[] = ["exact", "qualified", "typo", "prefix3", "prefix4", "prefix5", "native"];
const queries: { kind: Kind; q: string; truth: number }[] = [];
const ownFolded = rows.map((r) => [foldName(r.name), foldName(r.ascii)] as const);
function amongFiveStartingWith(r: Row, prefix: string): boolean {
  const p = foldName(prefix);
  let seen = 0;
  for (let i = 0; i < rows.length && seen < 5; i++) {
    const [a, b] = ownFolded[i]!;
    if (!a.startsWith(p) && !b.startsWith(p)) continue;
    if (rows[i] === r) return true;
    seen++;
  }
  return false;
}
for (const r of rows.slice(0, TOP)) {
  const own = foldName(r.name);
  if (byOwnName.get(own) === r) queries.push({ kind: "exact", q: r.name, truth: r.id });
  const country = countryName.get(r.cc);
  if (country && byOwnNameInCountry.get(`${own}|${r.cc}`) === r) queries.push({ kind: "qualified", q: `${r.name}, ${country}`, truth: r.id });
  const ascii = foldName(r.ascii);
  if ([...ascii].length >= 4) {
    let t = typo(ascii);
    for (let attempt = 0; attempt < 5 && (t === ascii || byAnyName.has(foldName(t))); attempt++) t = typo(ascii);
    if (t !== ascii && !byAnyName.has(foldName(t)) && [...foldName(t)].length >= 4) queries.push({ kind: "typo", q: t, truth: r.id });
  }
  const chars = [...r.name];
  for (const n of [3, 4, 5] as const) {
    if (chars.length > n && amongFiveStartingWith(r, chars.slice(0, n).join(""))) queries.push({ kind: `prefix${n}`, q: chars.slice(0, n).join(""), truth: r.id });
  }
  const scripts = (COUNTRY_SCRIPTS[r.cc] ?? []).map((s) => SCRIPT_OF[s]!);
  const native = r.alternates.filter((a) => scripts.some((re) => re.test(a)) && !/[a-z]/i.test(a) && byAnyName.get(foldName(a)) === r);
  if (native.length > 0) queries.push({ kind: "native", q: native[Math.floor(random() * native.length)]!, truth: r.id });
}

// --- Relevance: index order vs population-only order of the same matches ------------------------
const idOf = (place: number): number => ix.geonameId[place]!;
function populationOrder(q: string): number[] {
  const total = data.search(q, 0, 0).total;
  const all = data.search(q, total, 0).places;
  return all.sort((a, b) => ix.population[b]! - ix.population[a]! || idOf(a) - idOf(b)).slice(0, 5);
}
const stats = new Map<Kind, { n: number; top1: number; top5: number; pop1: number; pop5: number }>();
const failures = new Map<Kind, string[]>();
for (const { kind, q, truth } of queries) {
  const s = stats.get(kind) ?? { n: 0, top1: 0, top5: 0, pop1: 0, pop5: 0 };
  const got = data.search(q, 5, 0).places.map(idOf);
  const pop = populationOrder(q).map(idOf);
  s.n++;
  if (got[0] === truth) s.top1++;
  if (got.includes(truth)) s.top5++;
  if (pop[0] === truth) s.pop1++;
  if (pop.includes(truth)) s.pop5++;
  stats.set(kind, s);
  const miss = kind.startsWith("prefix") ? !got.includes(truth) : got[0] !== truth;
  if (miss) {
    const list = failures.get(kind) ?? [];
    const first = got[0] === undefined ? "nothing" : `${ix.name(data.placeByGeonameId(got[0])!)} (gn:${got[0]})`;
    list.push(`${JSON.stringify(q)} → ${first}, want gn:${truth}`);
    failures.set(kind, list);
  }
}
const pct = (a: number, n: number): string => `${((100 * a) / n).toFixed(1)} %`;
console.log(`\nrelevance over the ${TOP} most populous places of cities15000 (index: ${ix.placeCount} places)`);
console.table(
  KINDS.map((kind) => {
    const s = stats.get(kind)!;
    return { class: kind, queries: s.n, "top-1": pct(s.top1, s.n), "top-5": pct(s.top5, s.n), "population top-1": pct(s.pop1, s.n), "population top-5": pct(s.pop5, s.n) };
  }),
);
for (const [kind, list] of failures) console.log(`${kind} misses (${list.length}): ${list.slice(0, 12).join("; ")}`);

// --- The named hijacks of issue 15 (expected place: GeoNames' most populous own-name match) ------
function mostPopulousStartingWith(prefix: string): Row | undefined {
  const p = foldName(prefix);
  return rows.find((r) => foldName(r.name).startsWith(p) || foldName(r.ascii).startsWith(p));
}
const hijacks: { q: string; want: Row | undefined; rule: string }[] = [
  ...["Philadelphia", "Victoria", "Cancún"].map((q) => ({ q, want: byOwnName.get(foldName(q)), rule: "top-1" })),
  ...["São P", "New Y", "Shen", "Lago", "Toro", "Kara", "Alma", "Buch"].map((q) => ({ q, want: mostPopulousStartingWith(q), rule: "top-1" })),
  { q: "ondon", want: byOwnName.get("london"), rule: "top-1" },
  { q: "Kapur", want: byOwnName.get("kanpur"), rule: "top-1" },
  { q: "Changzhuo", want: byOwnName.get("changzhou"), rule: "top-1" },
];
let passed = 0;
for (const { q, want, rule } of hijacks) {
  const got = data.search(q, 5, 0).places;
  const ok = want !== undefined && idOf(got[0]!) === want.id;
  if (ok) passed++;
  console.log(`${ok ? "[x]" : "[ ]"} ${JSON.stringify(q)} ${rule} ${want?.name} (gn:${want?.id}): got ${got.map((p) => ix.name(p)).join(", ")}`);
}
console.log(`hijack cases: ${passed}/${hijacks.length}`);

// --- Latency in process (per query, all classes) ---------------------------------------------
// Wall time and the thread's CPU time (getrusage, µs resolution): on a shared, oversubscribed
// machine the wall-clock tail is mostly time spent descheduled; CPU time is what the query costs.
for (const { q } of queries) data.search(q, 10, 0);
const wall: number[] = [];
const cpu: number[] = [];
const cpuByKind = new Map<Kind, number[]>();
for (let round = 0; round < 3; round++) {
  for (const { kind, q } of queries) {
    const c = process.cpuUsage();
    const s = process.hrtime.bigint();
    data.search(q, 10, 0);
    wall.push(Number(process.hrtime.bigint() - s) / 1000);
    const used = process.cpuUsage(c);
    cpu.push(used.user + used.system);
    cpuByKind.set(kind, cpuByKind.get(kind) ?? []);
    cpuByKind.get(kind)!.push(used.user + used.system);
  }
}
const at = (list: number[], p: number): string => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(p * list.length))]!.toFixed(0);
console.log(`latency over ${wall.length} searches (limit 10): wall p50 ${at(wall, 0.5)} µs, p99 ${at(wall, 0.99)} µs; CPU p50 ${at(cpu, 0.5)} µs, p99 ${at(cpu, 0.99)} µs, max ${at(cpu, 1)} µs`);
console.log(`CPU p50 / p99 by class: ${KINDS.map((k) => `${k} ${at(cpuByKind.get(k)!, 0.5)} / ${at(cpuByKind.get(k)!, 0.99)} µs`).join(", ")}`);
