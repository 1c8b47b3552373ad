/**
 * Scale rehearsal input: a full-size GFS run in NOMADS's layout, one GRIB2 file per step
 * (`gfs.YYYYMMDD/HH/atmos/gfs.tHHz.pgrb2.<res>.fFFF`; 0.25°: 209 steps, hourly to 120 h, then
 * 3-hourly to 384 h; 1.00°: 129 steps, 3-hourly to 384 h) with its wgrib2-style `.idx`, holding
 * every variable the gfs025/gfs100 registry stores (22 names) as upstream publishes them:
 * instantaneous fields at every step, TMAX/TMIN over the 6-hour bucket (`(6k, h]`), APCP/ACPCP
 * over the bucket plus the running total `[0, h]` at multiples of 6 hours, nothing windowed at f000.
 *
 * No real full run is available offline, so every message is a real NCEP global message of the
 * model's grid taken from the shared files. 0.25° (1440 x 721, packing 5.3 complex + spatial
 * differencing of order 2, as GFS publishes): the four APCP messages of
 * gfs.20200325.t18z.pgrb2.0p25.f006/.f018 and the GDAS VRATE message gdas.t12z.pgrb2.0p25.f000.12
 * (the only global 0.25° NCEP fields without missing points). 1.00° (360 x 181, packing 5.3): ten
 * APCP messages of GFS_Global_onedeg_20220627.TotalPrecip.Out24hrs.grib2 (the 00Z and 12Z runs'
 * 3-hour buckets and running totals, 31 to 46 KB each). Their sections 3 (grid), 6 and 7 (the packed data) are copied byte for byte; section 4
 * is rewritten (template 4.0, or 4.8 for windows) to say which variable, level and step it is,
 * section 1 carries the run time, and section 5's reference value R and binary scale E are changed
 * so that the values land in the variable's usual range: value' = 2^k x value + b (an exact affine
 * map of the real field, no repacking). Each variable takes the five fields in turn from step to
 * step (offset by its index), so a series jumps between unrelated real fields where they differ
 * (harder to compress than a model's smooth series), while over the dry part of the globe four of
 * the five fields (precipitation) are zero and the series repeats one value: the store's size is
 * an estimate, neither a bound above nor below. surface_height keeps one field at every step, as
 * GFS's HGT surface is constant over a run.
 *
 *   npx tsx bench/scale/generate-gfs-run.ts OUT_DIR [--model gfs025|gfs100] [--run YYYYMMDDHH] [--steps N] [--upstream nomads|aws]
 *
 * OUT_DIR gets the tree under `nomads.ncep.noaa.gov/pub/data/nccf/com/gfs/prod/` (the nightly's
 * `--mirror` layout), or with `--upstream aws` under `noaa-gfs-bdp-pds.s3.amazonaws.com/` (NOAA's
 * bucket on AWS Open Data, the light profile's source). Default run: the newest 6-hourly cycle at
 * or before now (UTC).
 */
import { promises as fs, readFileSync } from "node:fs";
import path from "node:path";
import { SHARED_DATA_DIR } from "../../datasets/common/paths.ts";
import { GFS025, GFS100 } from "../../pipeline/forecast/models/gfs/domains.ts";
import { formatInventory } from "../../pipeline/forecast/inventory.ts";
import type { ModelVariable } from "../../pipeline/forecast/models/types.ts";
import { decodeField } from "../../pipeline/grib/decode.ts";
import { scanGrib } from "../../pipeline/grib/scan.ts";

/** Where each upstream keeps the run directories (`gfs.YYYYMMDD/HH/atmos/`), as `<host>/<path>`. */
const MIRROR_PREFIX = { nomads: "nomads.ncep.noaa.gov/pub/data/nccf/com/gfs/prod", aws: "noaa-gfs-bdp-pds.s3.amazonaws.com" };

/** Real global NCEP messages per model (file under the shared grib directory, 1-based message). */
const SOURCES: Record<"gfs025" | "gfs100", [file: string, message: number][]> = {
  gfs025: [
    ["gfs/gfs.20200325.t18z.pgrb2.0p25.f006", 1],
    ["gfs/gfs.20200325.t18z.pgrb2.0p25.f006", 2],
    ["gfs/gfs.20200325.t18z.pgrb2.0p25.f018", 1],
    ["gfs/gfs.20200325.t18z.pgrb2.0p25.f018", 2],
    ["other/gdas.t12z.pgrb2.0p25.f000.12", 1],
  ],
  // 00Z run: (0,3] (0,6] (6,9] (0,12] (12,18] (0,24]; 12Z run: (0,9] (12,15] (0,18] (18,24].
  gfs100: [1, 2, 3, 5, 10, 14, 31, 33, 37, 41].map((m) => ["gfs-multistep/GFS_Global_onedeg_20220627.TotalPrecip.Out24hrs.grib2", m] as [string, number]),
};
const DOMAINS = { gfs025: GFS025, gfs100: GFS100 };

/** Usual range of each variable in its GRIB unit: where the affine map puts a source field. */
const RANGES: Record<string, [number, number]> = {
  temperature_2m: [220, 315],
  temperature_2m_max: [222, 318],
  temperature_2m_min: [218, 312],
  relative_humidity_2m: [5, 100],
  wind_u_10m: [-25, 25],
  wind_v_10m: [-25, 25],
  wind_gust: [0, 35],
  pressure_msl: [96_000, 105_000],
  precipitation: [0, 60],
  precipitation_convective: [0, 40],
  cloud_cover: [0, 100],
  cloud_cover_high: [0, 100],
  cloud_cover_mid: [0, 100],
  cloud_cover_low: [0, 100],
  cloud_cover_convective: [0, 100],
  cloud_cover_boundary_layer: [0, 100],
  lifted_index: [-8, 30],
  boundary_layer_height: [20, 3_500],
  freezing_level_height: [0, 5_500],
  temperature_925hPa: [230, 305],
  temperature_850hPa: [225, 300],
  surface_height: [-50, 6_000],
};

/** Code table 4.10 for the windowed statistics. */
const STATISTIC_CODE = { accumulation: 1, maximum: 2, minimum: 3, average: 0 } as const;

interface SourceMessage {
  name: string;
  /** Sections 1, 3, 5, 6, 7 of the real message (section 2 absent in these files). */
  sections: Map<number, Uint8Array>;
  min: number;
  max: number;
}

function sectionsOf(message: Uint8Array, name: string): Map<number, Uint8Array> {
  const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
  const out = new Map<number, Uint8Array>();
  let pos = 16;
  while (pos < message.length - 4) {
    const length = view.getUint32(pos);
    const number = message[pos + 4]!;
    if (out.has(number)) throw new Error(`${name}: section ${number} repeats (several fields in one message are not expected here)`);
    out.set(number, message.subarray(pos, pos + length));
    pos += length;
  }
  for (const n of [1, 3, 5, 6, 7]) if (!out.has(n)) throw new Error(`${name}: expected section ${n}, got none`);
  if (out.has(2)) throw new Error(`${name}: expected no section 2 (local use), got one`);
  return out;
}

function loadSources(model: "gfs025" | "gfs100"): SourceMessage[] {
  const { nLat, nLon } = DOMAINS[model].grid;
  return SOURCES[model].map(([file, message]) => {
    const where = path.join(SHARED_DATA_DIR, "grib", file);
    const bytes = new Uint8Array(readFileSync(where));
    const field = scanGrib(bytes, where)[message - 1];
    if (!field || field.numberOfPoints !== nLat * nLon || field.packingTemplate !== 3) {
      throw new Error(`${where} message ${message}: expected a ${nLon} x ${nLat} field in packing 5.3, got ${field ? `${field.numberOfPoints} points, 5.${field.packingTemplate}` : "no such message"}`);
    }
    const values = decodeField(bytes, field, where);
    let min = Infinity;
    let max = -Infinity;
    for (const v of values) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    const name = `${path.basename(file)}#${message}`;
    return { name, sections: sectionsOf(bytes.subarray(field.messageOffset, field.messageOffset + field.messageLength), name), min, max };
  });
}

/** A copy of section 1 with the run time as reference time of a forecast product. */
function section1(original: Uint8Array, run: Date): Uint8Array {
  const s = original.slice();
  const view = new DataView(s.buffer);
  s[11] = 1; // significance of the reference time: start of forecast
  view.setUint16(12, run.getUTCFullYear());
  s.set([run.getUTCMonth() + 1, run.getUTCDate(), run.getUTCHours(), 0, 0], 14);
  s[20] = 1; // type of processed data: forecast products
  return s;
}

/** Section 4, template 4.0 (instant) or 4.8 (statistic over [start, end] hours). */
function section4(v: ModelVariable, run: Date, start: number, end: number): Uint8Array {
  const g = v.grib2!;
  const windowed = end > start;
  const s = new Uint8Array(windowed ? 58 : 34);
  const view = new DataView(s.buffer);
  view.setUint32(0, s.length);
  s[4] = 4;
  view.setUint16(7, windowed ? 8 : 0);
  s[9] = g.category;
  s[10] = g.number;
  s[11] = 2; // forecast
  s[12] = 0;
  s[13] = 96; // NCEP's generating process of the GFS
  s[17] = 1; // hours
  view.setUint32(18, start);
  s[22] = g.levelType;
  s[23] = 0;
  view.setUint32(24, g.levelValue);
  s[28] = 255; // no second surface
  s[29] = 255;
  view.setUint32(30, 0xffffffff);
  if (windowed) {
    const t = new Date(run.getTime() + end * 3_600_000);
    view.setUint16(34, t.getUTCFullYear());
    s.set([t.getUTCMonth() + 1, t.getUTCDate(), t.getUTCHours(), 0, 0], 36);
    s[41] = 1; // one time range
    view.setUint32(42, 0);
    s[46] = STATISTIC_CODE[g.statistics![0] as keyof typeof STATISTIC_CODE];
    s[47] = 2; // successive times, forecast time incremented
    s[48] = 1;
    view.setUint32(49, end - start);
    s[53] = 1;
    view.setUint32(54, 0);
  }
  return s;
}

/** A copy of section 5 (template 5.3) with value' = 2^k value + b: R' = 2^k R + b 10^D, E' = E + k. */
function section5(original: Uint8Array, k: number, b: number): Uint8Array {
  const s = original.slice();
  const view = new DataView(s.buffer);
  const r = view.getFloat32(11);
  const rawE = view.getUint16(15);
  const rawD = view.getUint16(17);
  const e = rawE & 0x8000 ? -(rawE & 0x7fff) : rawE;
  const d = rawD & 0x8000 ? -(rawD & 0x7fff) : rawD;
  view.setFloat32(11, r * 2 ** k + b * 10 ** d);
  const e2 = e + k;
  view.setUint16(15, e2 < 0 ? 0x8000 | -e2 : e2);
  return s;
}

function message(discipline: number, parts: Uint8Array[]): Uint8Array {
  const length = 16 + parts.reduce((n, p) => n + p.length, 0) + 4;
  const out = new Uint8Array(length);
  out.set([0x47, 0x52, 0x49, 0x42, 0, 0, discipline, 2]);
  new DataView(out.buffer).setBigUint64(8, BigInt(length));
  let at = 16;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  out.set([0x37, 0x37, 0x37, 0x37], at);
  return out;
}

/** The windows upstream publishes at step h for a windowed variable. */
function windowsAt(v: ModelVariable, h: number): [number, number][] {
  if (h === 0) return [];
  const bucket = 6 * Math.floor((h - 1) / 6);
  const out: [number, number][] = [[bucket, h]];
  if (v.aggregation === "sum" && h % 6 === 0) out.push([0, h]);
  return out;
}

function parseArgs(argv: string[]): { out: string; model: "gfs025" | "gfs100"; run: Date; steps: number | undefined; upstream: keyof typeof MIRROR_PREFIX } {
  const out = argv[0];
  if (!out || out.startsWith("--")) throw new Error("usage: generate-gfs-run.ts OUT_DIR [--model gfs025|gfs100] [--run YYYYMMDDHH] [--steps N] [--upstream nomads|aws]");
  const now = new Date();
  let run = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 6 * Math.floor(now.getUTCHours() / 6)));
  let steps: number | undefined;
  let model: "gfs025" | "gfs100" = "gfs025";
  let upstream: keyof typeof MIRROR_PREFIX = "nomads";
  for (let i = 1; i < argv.length; i += 2) {
    const value = argv[i + 1] ?? "";
    if (argv[i] === "--model") {
      if (value !== "gfs025" && value !== "gfs100") throw new Error(`--model: expected gfs025 or gfs100, got ${JSON.stringify(value)}`);
      model = value;
    } else if (argv[i] === "--run") {
      const m = /^(\d{4})(\d{2})(\d{2})(00|06|12|18)$/.exec(value);
      if (!m) throw new Error(`--run: expected YYYYMMDDHH with HH 00, 06, 12 or 18, got ${JSON.stringify(value)}`);
      run = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4])));
    } else if (argv[i] === "--steps") {
      steps = Number(value);
      if (!Number.isInteger(steps) || steps < 1) throw new Error(`--steps: expected a positive step count, got ${JSON.stringify(value)}`);
    } else if (argv[i] === "--upstream") {
      if (value !== "nomads" && value !== "aws") throw new Error(`--upstream: expected nomads or aws, got ${JSON.stringify(value)}`);
      upstream = value;
    } else throw new Error(`unknown option ${argv[i]}`);
  }
  return { out, model, run, steps, upstream };
}

const args = parseArgs(process.argv.slice(2));
const { out, run } = args;
const prefix = MIRROR_PREFIX[args.upstream];
const domain = DOMAINS[args.model];
const steps = Math.min(args.steps ?? domain.steps.length, domain.steps.length);
const sources = loadSources(args.model);
// One entry per stored name: the registry's first alternative (instantaneous cloud layers).
const variables: ModelVariable[] = [];
for (const v of domain.variables) if (!variables.some((w) => w.name === v.name)) variables.push(v);
const maps = variables.map((v) => {
  const range = RANGES[v.name];
  if (!range) throw new Error(`${v.name}: expected a usual range in RANGES, got none`);
  const [lo, hi] = range;
  return sources.map((s) => {
    const k = Math.round(Math.log2((hi - lo) / Math.max(s.max - s.min, 1e-6)));
    return { k, b: lo - 2 ** k * s.min };
  });
});
const files = domain.files(run, domain.steps.slice(0, steps));
const dir = path.join(out, prefix, path.posix.dirname(files[0]!.path));
await fs.mkdir(dir, { recursive: true });
const started = Date.now();
let totalBytes = 0;
let messages = 0;
for (let i = 0; i < steps; i++) {
  const h = domain.steps[i]!;
  const parts: Uint8Array[] = [];
  variables.forEach((v, vi) => {
    const windows: [number, number][] = v.aggregation === "instant" ? [[h, h]] : windowsAt(v, h);
    for (const [start, end] of windows) {
      const which = v.name === "surface_height" ? 0 : (i + vi * 2 + (end - start === h ? 3 : 0)) % sources.length;
      const s = sources[which]!;
      const { k, b } = maps[vi]![which]!;
      parts.push(message(v.grib2!.discipline, [section1(s.sections.get(1)!, run), s.sections.get(3)!, section4(v, run, start, end), section5(s.sections.get(5)!, k, b), s.sections.get(6)!, s.sections.get(7)!]));
    }
  });
  const bytes = Buffer.concat(parts);
  const file = path.join(out, prefix, files[i]!.path);
  await fs.writeFile(file, bytes);
  await fs.writeFile(`${file}.idx`, formatInventory(scanGrib(bytes, file)));
  totalBytes += bytes.length;
  messages += parts.length;
}
process.stderr.write(
  JSON.stringify({ msg: "GFS run generated", runTime: run.toISOString(), dir, steps, variables: variables.length, messages, bytes: totalBytes, elapsedS: (Date.now() - started) / 1000 }) + "\n",
);
