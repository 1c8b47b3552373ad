/**
 * Reverse geocoding (datasets/admin/): agreement and speed against a brute-force
 * point-in-polygon oracle, geo-tz and @photostructure/tz-lookup, in the same run.
 *
 * Points (seeded): REVERSE_BENCH_LAND random points on land (default 1,000,000: uniform on the
 * sphere, kept when the oracle finds an admin-1 polygon) and REVERSE_BENCH_BORDER points within
 * 1 km of a border (default 100,000: a random edge of an admin-1 or timezone polygon, a random
 * point on it, moved up to 1 km across it). REVERSE_BENCH_GEOTZ caps how many of each set geo-tz
 * and tz-lookup answer (default all). Arguments `--land N --border N --geotz N` work too.
 *
 * Oracle: every polygon whose box holds the point, tested by ray casting, first match in source
 * order; admin-1 polygons as stored in the artifact (Natural Earth's rings and the enclave rings
 * verbatim), timezones from geo-tz's raw clipped pieces (not our merged chains), ocean bands
 * outside them. Baseline of the timing table: the oracle.
 *
 * The index is timed as the server reads it (positioned reads of the file through the page cache,
 * the reads per lookup counted) and, in the same run, over the file's bytes held in memory (no
 * read at all): their ratio is what reading the file where it lies costs.
 *
 * Run: npx tsx bench/reverse.bench.ts (builds the embedded default's admin dataset first if needed).
 */
import { promises as fs } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { find as geoTzFind } from "geo-tz/all";
import { Bench } from "tinybench";
import tzLookup from "@photostructure/tz-lookup";
import type { AdminIndex } from "../datasets/admin/admin-index.ts";
import { COAST_TOLERANCE_KM, NO_FEATURE } from "../datasets/admin/exact.ts";
import { edgesDistanceKm, nearestFeatureWithin } from "../datasets/admin/polygon-layer.ts";
import { ADMIN_SPEC, openAdminFile, openAdminIndex } from "../datasets/admin/admin-file.ts";
import { openEnvelope, openEnvelopeFile } from "../datasets/artifact/envelope.ts";
import { memorySource, type ByteSource } from "../datasets/common/byte-source.ts";
import { oceanZone } from "../datasets/admin/ocean-zones.ts";
import { DATASETS } from "../datasets/catalog.ts";
import { readConfig } from "../datasets/common/config.ts";
import { createLogger } from "../datasets/common/log.ts";
import { geoTzFiles } from "../pipeline/admin/geotz-package.ts";
import { FeatureGrid } from "../pipeline/admin/feature-grid.ts";
import { defaultGeoTzDir } from "../pipeline/admin/step.ts";
import { mulberry32 } from "../datasets/common/prng.ts";
import { buildDefault } from "../pipeline/build-default.ts";
import { locateDataset } from "../datasets/releases/locate.ts";

function option(name: string, env: string | undefined, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const raw = i >= 0 ? process.argv[i + 1] : env;
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`--${name}: expected a whole number, got ${raw}`);
  return Number(raw);
}

const LAND = option("land", process.env.REVERSE_BENCH_LAND, 1_000_000);
const BORDER = option("border", process.env.REVERSE_BENCH_BORDER, 100_000);
const OTHERS = option("geotz", process.env.REVERSE_BENCH_GEOTZ, Number.MAX_SAFE_INTEGER);

// ---- Untimed setup: the artifact (built if missing), load time and heap growth.
const config = readConfig(process.env);
await buildDefault(config, createLogger({ minLevel: "warn" }), { only: ["admin"] });
const file = path.join((await locateDataset(config.dataDir, "admin")).dir, DATASETS.admin.file);
const before = process.memoryUsage();
let t0 = performance.now();
const opened = openAdminFile(file);
const loadMs = performance.now() - t0;
globalThis.gc?.();
const after = process.memoryUsage();
const heapGrowthMb = (after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / 2 ** 20;
// Every read of the server's path counted: the reads a lookup costs.
let reads = 0;
const spec = { magic: ADMIN_SPEC.magic, formatVersion: ADMIN_SPEC.formatVersion, file };
const fileSourced = openEnvelopeFile(file, spec);
const counting: ByteSource = {
  read: (offset, length) => {
    reads++;
    return fileSourced.source.read(offset, length);
  },
};
const fileIndex = openAdminIndex(counting, fileSourced.metadata, file);
// The oracle and the "in memory" rows read the same bytes held in memory.
const bytes = await fs.readFile(file);
const env = openEnvelope(bytes, spec);
const index = openAdminIndex(memorySource(env.payload), env.metadata, file);
opened.index.close();

// ---- The oracle's timezone polygons: geo-tz's clipped pieces as they are in geo.dat.
interface Piece {
  tzid: string;
  rings: Float64Array[];
  box: [number, number, number, number];
}
const require = createRequire(import.meta.url);
const geobuf = require("geobuf") as { decode(pbf: unknown): { features: { properties: { tzid: string }; geometry: { type: string; coordinates: number[][][] | number[][][][] } }[] } };
const Pbf = require("pbf") as new (b: Uint8Array) => unknown;

async function readPieces(): Promise<Piece[]> {
  const files = geoTzFiles(defaultGeoTzDir());
  const idx = JSON.parse(await fs.readFile(files.index, "utf8")) as { timezones: string[]; lookup: Record<string, unknown> };
  const dat = await fs.readFile(files.data);
  const pieces: Piece[] = [];
  const ring = (r: number[][]): Float64Array => Float64Array.from(r.flat());
  const boxOf = (rs: Float64Array[]): [number, number, number, number] => {
    const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const r of rs) for (let k = 0; k < r.length; k += 2) {
      b[0] = Math.min(b[0], r[k]!);
      b[1] = Math.min(b[1], r[k + 1]!);
      b[2] = Math.max(b[2], r[k]!);
      b[3] = Math.max(b[3], r[k + 1]!);
    }
    return b;
  };
  const walk = (node: Record<string, unknown>, top: number, bottom: number, left: number, right: number): void => {
    const mLat = (top + bottom) / 2;
    const mLon = (left + right) / 2;
    for (const [k, t, b, l, r] of [["a", top, mLat, mLon, right], ["b", top, mLat, left, mLon], ["c", mLat, bottom, left, mLon], ["d", mLat, bottom, mLon, right]] as const) {
      const child = node[k] as Record<string, unknown> | number[] | undefined;
      if (child === undefined) continue;
      if (Array.isArray(child)) {
        const rect = Float64Array.of(l, b, r, b, r, t, l, t, l, b);
        for (const z of child) pieces.push({ tzid: idx.timezones[z]!, rings: [rect], box: [l, b, r, t] });
      } else if (typeof child.pos === "number") {
        const fc = geobuf.decode(new Pbf(dat.subarray(child.pos, child.pos + (child.len as number))));
        for (const f of fc.features) {
          const polys = (f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates) as number[][][][];
          for (const p of polys) {
            const rings = p.map(ring);
            pieces.push({ tzid: f.properties.tzid, rings, box: boxOf(rings) });
          }
        }
      } else walk(child, t, b, l, r);
    }
  };
  walk(idx.lookup, 89.9999, -89.9999, -179.9999, 179.9999);
  return pieces;
}

function ringsContain(rings: Float64Array[], px: number, py: number): boolean {
  let inside = false;
  for (const r of rings) {
    for (let k = 0; k + 2 < r.length; k += 2) {
      const y1 = r[k + 1]!;
      const y2 = r[k + 3]!;
      if (y1 > py !== y2 > py && px < r[k]! + ((py - y1) * (r[k + 2]! - r[k]!)) / (y2 - y1)) inside = !inside;
    }
  }
  return inside;
}

const pieces = await readPieces();
const pieceCells = new Map<number, number[]>();
pieces.forEach((p, i) => {
  for (let y = Math.floor(p.box[1]); y <= Math.floor(p.box[3]); y++) {
    for (let x = Math.floor(p.box[0]); x <= Math.floor(p.box[2]); x++) {
      const key = (y + 90) * 361 + (x + 180);
      const list = pieceCells.get(key) ?? [];
      list.push(i);
      pieceCells.set(key, list);
    }
  }
});
const adminGrid = new FeatureGrid(index.admin);
const adminXy = index.admin.vertices(0, index.admin.vertexCount);
const tzXy = index.tz.vertices(0, index.tz.vertexCount);
const chainsOf = (layer: AdminIndex["admin"]): Uint32Array => layer.chainStarts(0, layer.featureChainStart[layer.featureChainStart.length - 1]!);
const layers = { admin: { xy: adminXy, chainStart: chainsOf(index.admin) }, tz: { xy: tzXy, chainStart: chainsOf(index.tz) } };

interface Truth {
  iso2: string | undefined;
  admin1: string | undefined;
  tz: string;
}

/** Country of each zone (the index's attribute, taken as given) and the admin features per country. */
const countryOfZone = new Map(index.attributes.tzid.map((z, i) => [z, index.attributes.tzCountry[i]!]));
/** The nearest admin feature of a country, by a linear scan of all its edges. */
function nearestOfCountry(cc: string, lon: number, lat: number): number | undefined {
  const admin = layers.admin;
  const fcs = index.admin.featureChainStart;
  let best: number | undefined;
  let bestD = Infinity;
  for (let f = 0; f < fcs.length - 1; f++) {
    if (index.attributes.iso2[f] !== cc) continue;
    for (let c = fcs[f]!; c < fcs[f + 1]!; c++) {
      const from = admin.chainStart[c]!;
      const d = edgesDistanceKm(admin.xy, from, admin.chainStart[c + 1]! - from - 1, lon, lat);
      if (d < bestD) {
        bestD = d;
        best = f;
      }
    }
  }
  return best;
}

function oracle(lat: number, lon: number): Truth {
  // geo-tz clamps to its quadtree's extent; so does its data.
  const cl = Math.max(-89.9999, Math.min(89.9999, lat));
  const cx = Math.max(-179.9999, Math.min(179.9999, lon));
  const zones: string[] = [];
  for (const i of pieceCells.get((Math.floor(cl) + 90) * 361 + (Math.floor(cx) + 180)) ?? []) {
    const p = pieces[i]!;
    if (cx >= p.box[0] && cx <= p.box[2] && cl >= p.box[1] && cl <= p.box[3] && ringsContain(p.rings, cx, cl)) zones.push(p.tzid);
  }
  zones.sort();
  // The first polygon containing the point, else the nearest within the coast tolerance (the
  // territorial sea), else, in a country's zone, that country's nearest area.
  const zoneCountry = zones[0] === undefined ? "" : (countryOfZone.get(zones[0]) ?? "");
  const f = adminGrid.locate(lon, lat) ?? nearestFeatureWithin(index.admin, lon, lat, COAST_TOLERANCE_KM) ?? (zoneCountry ? nearestOfCountry(zoneCountry, lon, lat) : undefined);
  const attrs = index.attributes;
  // admin-1 of a split area: its nearest refinement place (the same linear scan as the index).
  return { iso2: f === undefined ? undefined : attrs.iso2[f] || undefined, admin1: f === undefined ? undefined : index.admin1Of(f, lat, lon), tz: zones[0] ?? oceanZone(lon) };
}

// ---- Seeded points.
const rnd = mulberry32(20261122);
const landLat = new Float64Array(LAND);
const landLon = new Float64Array(LAND);
const landTruth: Truth[] = [];
t0 = performance.now();
for (let n = 0; n < LAND; ) {
  const lat = (Math.asin(2 * rnd() - 1) * 180) / Math.PI;
  const lon = rnd() * 360 - 180;
  if (adminGrid.locate(lon, lat) === undefined) continue;
  landLat[n] = lat;
  landLon[n] = lon;
  landTruth.push(oracle(lat, lon));
  n++;
}
const oracleLandMs = performance.now() - t0;
const borderLat = new Float64Array(BORDER);
const borderLon = new Float64Array(BORDER);
const borderTruth: Truth[] = [];
for (let n = 0; n < BORDER; n++) {
  const layer = n % 2 === 0 ? layers.admin : layers.tz;
  const xy = layer.xy;
  let v: number;
  do v = Math.floor(rnd() * (xy.length / 2 - 1));
  while (!isEdge(layer.chainStart, v));
  const t = rnd();
  const x = xy[2 * v]! + (xy[2 * v + 2]! - xy[2 * v]!) * t;
  const y = xy[2 * v + 1]! + (xy[2 * v + 3]! - xy[2 * v + 1]!) * t;
  const dKm = (rnd() * 2 - 1) * 1;
  const ex = (xy[2 * v + 2]! - xy[2 * v]!) * Math.cos((y * Math.PI) / 180);
  const ey = xy[2 * v + 3]! - xy[2 * v + 1]!;
  const len = Math.hypot(ex, ey) || 1;
  const lat = Math.max(-90, Math.min(90, y + ((ex / len) * dKm) / 111.32));
  const lon = Math.max(-180, Math.min(180, x - ((ey / len) * dKm) / (111.32 * Math.max(0.01, Math.cos((y * Math.PI) / 180)))));
  borderLat[n] = lat;
  borderLon[n] = lon;
  borderTruth.push(oracle(lat, lon));
}

/** Index of the first chain start greater than v. */
function upperBound(a: Uint32Array, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
/** Whether v starts an edge (v + 1 is in the same chain). */
function isEdge(chainStart: Uint32Array, v: number): boolean {
  return chainStart[upperBound(chainStart, v)]! > v + 1;
}

// ---- Agreement.
interface Agreement {
  country: number;
  admin1: number;
  tz: number;
  n: number;
}
function agreeIndex(lat: Float64Array, lon: Float64Array, truth: Truth[]): Agreement {
  const a: Agreement = { country: 0, admin1: 0, tz: 0, n: truth.length };
  for (let k = 0; k < truth.length; k++) {
    const r = fileIndex.lookup(lat[k]!, lon[k]!);
    if (r.iso2 === truth[k]!.iso2) a.country++;
    if (r.admin1 === truth[k]!.admin1) a.admin1++;
    if (r.timezone === truth[k]!.tz) a.tz++;
  }
  return a;
}
function agreeTz(lat: Float64Array, lon: Float64Array, truth: Truth[], fn: (lat: number, lon: number) => string): { tz: number; n: number } {
  const n = Math.min(truth.length, OTHERS);
  let tz = 0;
  for (let k = 0; k < n; k++) if (fn(lat[k]!, lon[k]!) === truth[k]!.tz) tz++;
  return { tz, n };
}
const geoTz = (lat: number, lon: number): string => [...geoTzFind(lat, lon)].sort()[0]!;
const tzl = (lat: number, lon: number): string => tzLookup(lat, lon);

const pct = (x: number, n: number): string => `${((100 * x) / n).toFixed(3)} %`;
const idxLand = agreeIndex(landLat, landLon, landTruth);
const idxBorder = agreeIndex(borderLat, borderLon, borderTruth);
const gtLand = agreeTz(landLat, landLon, landTruth, geoTz);
const gtBorder = agreeTz(borderLat, borderLon, borderTruth, geoTz);
const tlLand = agreeTz(landLat, landLon, landTruth, tzl);
const tlBorder = agreeTz(borderLat, borderLon, borderTruth, tzl);

// ---- Single-pass mean over all land points, and over single-answer cells only.
function passMs(lat: Float64Array, lon: Float64Array, ix: AdminIndex): number {
  const t = performance.now();
  let sink = 0;
  for (let k = 0; k < lat.length; k++) sink += ix.features(lat[k]!, lon[k]!).admin === NO_FEATURE ? 0 : 1;
  if (sink < 0) console.log(sink);
  return performance.now() - t;
}
/** Reads per lookup over a set of points, on the server's path. */
function readsPer(lat: Float64Array, lon: Float64Array, lookup: (lat: number, lon: number) => unknown): number {
  const before = reads;
  for (let k = 0; k < lat.length; k++) lookup(lat[k]!, lon[k]!);
  return (reads - before) / lat.length;
}
const single: number[] = [];
for (let k = 0; k < LAND; k++) if (index.slotKind(landLat[k]!, landLon[k]!) === "single") single.push(k);
const singleLat = Float64Array.from(single, (k) => landLat[k]!);
const singleLon = Float64Array.from(single, (k) => landLon[k]!);
// Each pass twice; the second (warm) one is reported.
passMs(landLat, landLon, fileIndex);
const landPassMs = passMs(landLat, landLon, fileIndex);
passMs(borderLat, borderLon, fileIndex);
const borderPassMs = passMs(borderLat, borderLon, fileIndex);
passMs(singleLat, singleLon, fileIndex);
const singlePassMs = passMs(singleLat, singleLon, fileIndex);
const readsLand = readsPer(landLat, landLon, (a, b) => fileIndex.features(a, b));
const readsBorder = readsPer(borderLat, borderLon, (a, b) => fileIndex.features(a, b));
const readsLandTz = readsPer(landLat, landLon, (a, b) => fileIndex.timezoneAt(a, b));

// ---- tinybench table: blocks of points per iteration, per-lookup times derived.
const BLOCK = 1000;
let cursor = 0;
const block = (n: number): number => {
  const start = cursor;
  cursor = (cursor + BLOCK) % Math.max(1, n - BLOCK);
  return start;
};
const bench = new Bench({ time: 1500, warmup: true });
bench
  .add("baseline: brute-force oracle", () => {
    const s = block(LAND);
    for (let k = s; k < s + BLOCK / 10; k++) oracle(landLat[k]!, landLon[k]!);
  })
  .add("admin index, land points", () => {
    const s = block(LAND);
    for (let k = s; k < s + BLOCK; k++) fileIndex.features(landLat[k]!, landLon[k]!);
  })
  .add("admin index, land points, bytes in memory", () => {
    const s = block(LAND);
    for (let k = s; k < s + BLOCK; k++) index.features(landLat[k]!, landLon[k]!);
  })
  .add("admin index, timezone only, land points", () => {
    const s = block(LAND);
    for (let k = s; k < s + BLOCK; k++) fileIndex.timezoneAt(landLat[k]!, landLon[k]!);
  })
  .add("admin index, single-answer cells", () => {
    const s = block(single.length);
    for (let k = s; k < s + BLOCK; k++) fileIndex.features(singleLat[k]!, singleLon[k]!);
  })
  .add("admin index, border points", () => {
    const s = block(BORDER);
    for (let k = s; k < s + BLOCK; k++) fileIndex.features(borderLat[k]!, borderLon[k]!);
  })
  .add("admin index, border points, bytes in memory", () => {
    const s = block(BORDER);
    for (let k = s; k < s + BLOCK; k++) index.features(borderLat[k]!, borderLon[k]!);
  })
  .add("geo-tz find (all product)", () => {
    const s = block(LAND);
    for (let k = s; k < s + BLOCK / 10; k++) geoTzFind(landLat[k]!, landLon[k]!);
  })
  .add("@photostructure/tz-lookup", () => {
    const s = block(LAND);
    for (let k = s; k < s + BLOCK; k++) tzLookup(landLat[k]!, landLon[k]!);
  });
await bench.run();

const perCall: Record<string, number> = {
  "baseline: brute-force oracle": BLOCK / 10,
  "geo-tz find (all product)": BLOCK / 10,
};
const baseline = bench.tasks[0]!.result;
const baseMean = baseline && "latency" in baseline ? baseline.latency.mean / (perCall[bench.tasks[0]!.name] ?? BLOCK) : NaN;
const rows = bench.tasks.map((task) => {
  const r = task.result;
  const per = perCall[task.name] ?? BLOCK;
  if (!r || !("latency" in r)) return { task: task.name, error: "no result" };
  const meanUs = (r.latency.mean / per) * 1000;
  return {
    task: task.name,
    "lookups/s": Math.round(per / (r.latency.mean / 1000)),
    "mean µs": meanUs.toFixed(3),
    "p99 µs (block/lookups)": ((r.latency.p99 ?? r.latency.mean) / per * 1000).toFixed(3),
    "× faster than oracle": (baseMean / (r.latency.mean / per)).toFixed(1),
  };
});
console.table(rows);

console.log(`points: ${LAND} on land (oracle ${Math.round(oracleLandMs / 1000)} s to label), ${BORDER} within 1 km of a border; geo-tz/tz-lookup on ${gtLand.n} + ${gtBorder.n}`);
console.table([
  { set: "land", who: "admin index", country: pct(idxLand.country, idxLand.n), admin1: pct(idxLand.admin1, idxLand.n), timezone: pct(idxLand.tz, idxLand.n) },
  { set: "border", who: "admin index", country: pct(idxBorder.country, idxBorder.n), admin1: pct(idxBorder.admin1, idxBorder.n), timezone: pct(idxBorder.tz, idxBorder.n) },
  { set: "land", who: "geo-tz", timezone: pct(gtLand.tz, gtLand.n) },
  { set: "border", who: "geo-tz", timezone: pct(gtBorder.tz, gtBorder.n) },
  { set: "land", who: "tz-lookup", timezone: pct(tlLand.tz, tlLand.n) },
  { set: "border", who: "tz-lookup", timezone: pct(tlBorder.tz, tlBorder.n) },
]);
console.table([
  {
    "single pass land mean µs": ((landPassMs / LAND) * 1000).toFixed(3),
    "single pass border mean µs": ((borderPassMs / BORDER) * 1000).toFixed(3),
    "single-answer lookups/s": Math.round(single.length / (singlePassMs / 1000)),
    "single-answer share of land": pct(single.length, LAND),
    "artifact MB": (bytes.byteLength / 2 ** 20).toFixed(1),
    "open ms": Math.round(loadMs),
    "heap growth at open MB": heapGrowthMb.toFixed(1),
    "H3 res": index.res,
  },
]);
console.table([{ "reads per lookup, land": readsLand.toFixed(2), "reads per lookup, border": readsBorder.toFixed(2), "reads per timezone lookup, land": readsLandTz.toFixed(2) }]);
