/**
 * The nightly configuration (pipeline/nightly.config.json): every upstream source of every
 * dataset, the count tolerances and the allowlist file. Validated once; a bad file is a
 * ConfigError naming the member, what was expected and what was got (the CLI exits 2).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ConfigError } from "../../datasets/common/errors.ts";
import { DATASET_NAMES, type DatasetName } from "../../datasets/catalog.ts";
import { PROJECT_ROOT } from "../../datasets/common/paths.ts";

/** The checked-in configurations: `nightly.config.json`, and one `nightly.<profile>.config.json` per profile. */
const CONFIG_DIR = path.join(PROJECT_ROOT, "pipeline");
export const DEFAULT_CONFIG_FILE = path.join(CONFIG_DIR, "nightly.config.json");

/** The profiles shipped with the project (`light`: the forecast alone, GFS 1.00° to 120 h). */
export function nightlyProfiles(dir = CONFIG_DIR): string[] {
  return readdirSync(dir).flatMap((f) => /^nightly\.([a-z0-9-]+)\.config\.json$/.exec(f)?.[1] ?? []).sort();
}

/** The configuration file of `--profile NAME` (`pipeline/nightly.NAME.config.json`). */
export function profileConfigFile(name: string, dir = CONFIG_DIR): string {
  const file = path.join(dir, `nightly.${name}.config.json`);
  if (!/^[a-z0-9-]+$/.test(name) || !existsSync(file)) throw new ConfigError("--profile", `one of ${nightlyProfiles(dir).join(", ")}`, name);
  return file;
}

/** One upstream file. `size` and `sha256` are checked when given (where the upstream publishes them). */
export interface SourceSpec {
  url: string;
  size?: number;
  sha256?: string;
  /** For a ZIP: the entry the step reads. */
  entry?: string;
}

/** How far a count may move against the previous release before the release is refused. */
export interface Tolerance {
  /** The count (a key of the artifact's build metadata `counts`). */
  count: string;
  /** Lowest accepted new/previous ratio (0.98 = at most 2 % fewer). */
  minRatio: number;
  /** Highest accepted new/previous ratio; absent = no upper bound. */
  maxRatio?: number;
}

export interface DatasetPlan {
  /** Named sources (`countries`, `places`, ...); a list for repeatable inputs. */
  sources: Record<string, SourceSpec[]>;
  /** Extra step options, passed as they are (e.g. ["--memory-limit-mb", "2048"]). */
  args: string[];
  tolerances: Tolerance[];
}

export interface NightlyConfig {
  /** Datasets to build, in order; a dataset absent from the file is not built. */
  datasets: Partial<Record<DatasetName, DatasetPlan>>;
  /** Allowlist of known count jumps (path relative to the config file). */
  allowlist?: string;
  /** The file read (absolute), for messages and relative paths. */
  file: string;
}

type Json = unknown;

function fail(where: string, expected: string, got: Json): never {
  throw new ConfigError(where, expected, typeof got === "string" ? got : (JSON.stringify(got) ?? "nothing"));
}

function isObject(v: Json): v is Record<string, Json> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Where relative source paths start (the configuration file's directory), set while parsing. */
let baseDir = process.cwd();

/** An http(s) URL, a file:/// URL, or a path relative to the configuration file (a file:/// URL then). */
function readUrl(where: string, v: Json): string {
  if (typeof v === "string" && /^(https?:\/\/[^\s]+|file:\/\/\/[^\s]+)$/.test(v)) return v;
  if (typeof v === "string" && v !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(v)) return pathToFileURL(path.resolve(baseDir, v)).href;
  fail(where, "an http(s):// or file:/// URL, or a path relative to the configuration file", v);
}

function readSource(where: string, v: Json): SourceSpec {
  if (typeof v === "string") return { url: readUrl(where, v) };
  if (!isObject(v)) fail(where, "a URL or { url, size?, sha256?, entry? }", v);
  for (const key of Object.keys(v)) if (!["url", "size", "sha256", "entry"].includes(key)) fail(`${where}.${key}`, "one of url, size, sha256, entry (or template)", key);
  const spec: SourceSpec = { url: readUrl(`${where}.url`, v.url) };
  if (v.size !== undefined) {
    if (typeof v.size !== "number" || !Number.isInteger(v.size) || v.size < 0) fail(`${where}.size`, "a byte count", v.size);
    spec.size = v.size;
  }
  if (v.sha256 !== undefined) {
    if (typeof v.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(v.sha256)) fail(`${where}.sha256`, "64 lowercase hex digits", v.sha256);
    spec.sha256 = v.sha256;
  }
  if (v.entry !== undefined) {
    if (typeof v.entry !== "string" || v.entry === "") fail(`${where}.entry`, "a ZIP entry name", v.entry);
    spec.entry = v.entry;
  }
  return spec;
}

/**
 * A URL template stands for several files: `{tile}` and `{latBand}` (N50E010 and N50) for each of
 * `tiles` (SRTM), or `{HH}` for each of the `lastHours` whole UTC hours up to now, the current one
 * included (NOAA METAR cycle files, rewritten through their hour).
 */
function expandTemplate(where: string, v: Record<string, Json>, now: Date): SourceSpec[] {
  for (const key of Object.keys(v)) if (!["template", "tiles", "lastHours"].includes(key)) fail(`${where}.${key}`, "one of template, tiles, lastHours", key);
  const template = v.template;
  if (typeof template !== "string") fail(`${where}.template`, "a URL with {tile} or {HH}", template);
  if (v.tiles !== undefined) {
    if (!Array.isArray(v.tiles) || v.tiles.some((t) => typeof t !== "string" || !/^[NS]\d{2}[EW]\d{3}$/.test(t))) fail(`${where}.tiles`, "SRTM tile names such as N50E010", v.tiles);
    return (v.tiles as string[]).map((t) => ({ url: readUrl(where, template.replaceAll("{tile}", t).replaceAll("{latBand}", t.slice(0, 3))) }));
  }
  if (typeof v.lastHours !== "number" || !Number.isInteger(v.lastHours) || v.lastHours < 1 || v.lastHours > 24) fail(`${where}.lastHours`, "an integer from 1 to 24", v.lastHours);
  const out: SourceSpec[] = [];
  for (let h = v.lastHours - 1; h >= 0; h--) {
    const hour = new Date(now.getTime() - h * 3_600_000).getUTCHours();
    out.push({ url: readUrl(where, template.replaceAll("{HH}", String(hour).padStart(2, "0"))) });
  }
  return out;
}

function readSources(where: string, v: Json, now: Date): SourceSpec[] {
  if (isObject(v) && v.template !== undefined) return expandTemplate(where, v, now);
  return [readSource(where, v)];
}

function readTolerance(where: string, v: Json): Tolerance {
  if (!isObject(v)) fail(where, "{ count, minRatio, maxRatio? }", v);
  if (typeof v.count !== "string" || v.count === "") fail(`${where}.count`, "a count name", v.count);
  if (typeof v.minRatio !== "number" || v.minRatio < 0 || v.minRatio > 1) fail(`${where}.minRatio`, "a ratio from 0 to 1", v.minRatio);
  const t: Tolerance = { count: v.count, minRatio: v.minRatio };
  if (v.maxRatio !== undefined) {
    if (typeof v.maxRatio !== "number" || v.maxRatio < 1) fail(`${where}.maxRatio`, "a ratio of at least 1", v.maxRatio);
    t.maxRatio = v.maxRatio;
  }
  return t;
}

/**
 * `{date}` in an argument stands for the run's UTC date (YYYY-MM-DD): `["--month", "{date}"]`
 * dates report files that carry no date of their own (the NWS SYNOP collective) by the day they
 * were fetched.
 */
function expandArg(arg: string, now: Date): string {
  return arg.replaceAll("{date}", now.toISOString().slice(0, 10));
}

function readPlan(where: string, v: Json, now: Date): DatasetPlan {
  if (!isObject(v)) fail(where, "an object { sources, args?, tolerances? }", v);
  if (!isObject(v.sources)) fail(`${where}.sources`, "an object of named sources", v.sources);
  const sources: Record<string, SourceSpec[]> = {};
  for (const [name, value] of Object.entries(v.sources)) {
    const list = Array.isArray(value) ? value : [value];
    sources[name] = list.flatMap((s, i) => readSources(Array.isArray(value) ? `${where}.sources.${name}[${i}]` : `${where}.sources.${name}`, s, now));
  }
  const args = v.args ?? [];
  if (!Array.isArray(args) || args.some((a) => typeof a !== "string")) fail(`${where}.args`, "an array of strings", args);
  const tolerances = v.tolerances ?? [];
  if (!Array.isArray(tolerances)) fail(`${where}.tolerances`, "an array", tolerances);
  return { sources, args: (args as string[]).map((a) => expandArg(a, now)), tolerances: tolerances.map((t, i) => readTolerance(`${where}.tolerances[${i}]`, t)) };
}

/** Validates a parsed configuration. `file` is where it came from (relative paths start there). */
export function parseNightlyConfig(raw: Json, file: string, now = new Date()): NightlyConfig {
  if (!isObject(raw)) fail(file, "a JSON object", raw);
  baseDir = path.dirname(file);
  for (const key of Object.keys(raw)) if (!["$comment", "datasets", "allowlist"].includes(key)) fail(`${file}: ${key}`, "one of datasets, allowlist, $comment", key);
  if (!isObject(raw.datasets)) fail(`${file}: datasets`, "an object keyed by dataset", raw.datasets);
  const datasets: Partial<Record<DatasetName, DatasetPlan>> = {};
  for (const [name, plan] of Object.entries(raw.datasets)) {
    if (!DATASET_NAMES.includes(name as DatasetName)) fail(`${file}: datasets.${name}`, `one of ${DATASET_NAMES.join(", ")}`, name);
    datasets[name as DatasetName] = readPlan(`${file}: datasets.${name}`, plan, now);
  }
  const config: NightlyConfig = { datasets, file };
  if (raw.allowlist !== undefined) {
    if (typeof raw.allowlist !== "string") fail(`${file}: allowlist`, "a path", raw.allowlist);
    config.allowlist = path.resolve(path.dirname(file), raw.allowlist);
  }
  return config;
}

/** Reads and validates the configuration file. */
export function loadNightlyConfig(file: string, now = new Date()): NightlyConfig {
  const absolute = path.resolve(file);
  let text: string;
  try {
    text = readFileSync(absolute, "utf8");
  } catch {
    throw new ConfigError("--config", "a readable JSON file", file);
  }
  let raw: Json;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigError("--config", "valid JSON", `${file}: ${(err as Error).message}`);
  }
  return parseNightlyConfig(raw, absolute, now);
}
