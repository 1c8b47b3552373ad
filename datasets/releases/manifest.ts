/**
 * `release.json`, the manifest of one release (FORMAT.md): which dataset and release it is, every
 * file with its size and SHA-256, what it was built from and by whom, its counts. Written last
 * into a release by the pipeline; read by the server (which checks every file against it before
 * serving the release) and by `sync` (which fetches exactly the files it lists: no directory
 * listing is needed). A manifest without `format` (releases published before the file list
 * existed) is refused like any other invalid one: there would be nothing to check its files
 * against, and a release served unchecked is how damaged bytes reach answers.
 */
import { DATASET_NAMES, type DatasetName } from "../catalog.ts";
import { DataFormatError } from "../common/errors.ts";
import { RELEASE_ID } from "./layout.ts";

export const MANIFEST_FORMAT = "geodata-release" as const;
export const MANIFEST_VERSION = 1;

/** One file of a release. `path` is relative to the release directory, `/`-separated. */
export interface ReleaseFile {
  path: string;
  size: number;
  sha256: string;
}

/** One version of one source the release was built from. */
export interface ReleaseSource {
  url: string;
  size: number;
  sha256: string;
  etag?: string;
  lastModified?: string;
}

/**
 * Who built the release: `nightly` (from upstream), `default` (the embedded default; its
 * `fingerprint` says from which inputs and code), `step` (`npm run pipeline -- <step>` by hand).
 * A synced release keeps its builder's manifest unchanged.
 */
export interface ReleaseBuilder {
  kind: "nightly" | "default" | "step";
  fingerprint?: string;
}

export interface ReleaseManifest {
  format: typeof MANIFEST_FORMAT;
  formatVersion: number;
  dataset: DatasetName;
  id: string;
  /** ISO 8601, the end of the build. */
  builtAt: string;
  builder: ReleaseBuilder;
  /** Every file of the release but release.json, sorted by path. */
  files: ReleaseFile[];
  sources: ReleaseSource[];
  /** The extra step options it was built with (the nightly rebuilds when they change). */
  args?: string[];
  counts: Record<string, number>;
}

/** A path a manifest may name: relative, `/`-separated, no `.`/`..` or hidden components, not release.json itself. */
const SAFE_PATH = /^(?!.*(^|\/)\.)[A-Za-z0-9_+@=,-][A-Za-z0-9_+@=,.-]*(\/[A-Za-z0-9_+@=,-][A-Za-z0-9_+@=,.-]*)*$/;
const SHA256 = /^[0-9a-f]{64}$/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function parseFiles(raw: unknown, shown: string): ReleaseFile[] {
  if (!Array.isArray(raw)) throw new DataFormatError({ file: shown, field: "files" }, "an array of { path, size, sha256 }", typeof raw);
  const seen = new Set<string>();
  return raw.map((f: unknown, i) => {
    const field = `files[${i}]`;
    if (!isRecord(f)) throw new DataFormatError({ file: shown, field }, "an object { path, size, sha256 }", JSON.stringify(f));
    const { path, size, sha256 } = f;
    if (typeof path !== "string" || !SAFE_PATH.test(path) || path === "release.json" || path.length > 1024) {
      throw new DataFormatError({ file: shown, field: `${field}.path` }, "a relative path without . or .. components", JSON.stringify(path));
    }
    if (seen.has(path)) throw new DataFormatError({ file: shown, field: `${field}.path` }, "each path once", `${path} twice`);
    seen.add(path);
    if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0) throw new DataFormatError({ file: shown, field: `${field}.size` }, "a byte count", JSON.stringify(size));
    if (typeof sha256 !== "string" || !SHA256.test(sha256)) throw new DataFormatError({ file: shown, field: `${field}.sha256` }, "64 lowercase hex digits", JSON.stringify(sha256));
    return { path, size, sha256 };
  });
}

/**
 * Parses and checks a manifest. `shown` names it in errors; `expected` is what the reader knows
 * it must describe (the dataset and the release id the pointer named).
 */
export function parseManifest(text: string, shown: string, expected: { dataset: DatasetName; id?: string }): ReleaseManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new DataFormatError({ file: shown }, "JSON", `${(err as Error).message}`);
  }
  if (!isRecord(raw)) throw new DataFormatError({ file: shown }, "a JSON object", Array.isArray(raw) ? "an array" : typeof raw);
  if (raw.format === undefined) {
    throw new DataFormatError({ file: shown, field: "format" }, `${JSON.stringify(MANIFEST_FORMAT)} and the list of files to check`, "none (a release of before the file list: rebuild it)");
  }
  if (raw.format !== MANIFEST_FORMAT) throw new DataFormatError({ file: shown, field: "format" }, JSON.stringify(MANIFEST_FORMAT), JSON.stringify(raw.format));
  if (raw.formatVersion !== MANIFEST_VERSION) throw new DataFormatError({ file: shown, field: "formatVersion" }, String(MANIFEST_VERSION), JSON.stringify(raw.formatVersion));
  if (typeof raw.dataset !== "string" || !DATASET_NAMES.includes(raw.dataset as DatasetName) || raw.dataset !== expected.dataset) {
    throw new DataFormatError({ file: shown, field: "dataset" }, JSON.stringify(expected.dataset), JSON.stringify(raw.dataset));
  }
  if (typeof raw.id !== "string" || !RELEASE_ID.test(raw.id) || (expected.id !== undefined && raw.id !== expected.id)) {
    throw new DataFormatError({ file: shown, field: "id" }, expected.id !== undefined ? JSON.stringify(expected.id) : "a release id", JSON.stringify(raw.id));
  }
  if (typeof raw.builtAt !== "string") throw new DataFormatError({ file: shown, field: "builtAt" }, "an ISO 8601 time", JSON.stringify(raw.builtAt));
  const builder = isRecord(raw.builder) ? raw.builder : { kind: "nightly" };
  if (builder.kind !== "nightly" && builder.kind !== "default" && builder.kind !== "step") {
    throw new DataFormatError({ file: shown, field: "builder.kind" }, "nightly, default or step", JSON.stringify(builder.kind));
  }
  return {
    format: MANIFEST_FORMAT,
    formatVersion: MANIFEST_VERSION,
    dataset: raw.dataset as DatasetName,
    id: raw.id,
    builtAt: raw.builtAt,
    builder: { kind: builder.kind, ...(typeof builder.fingerprint === "string" ? { fingerprint: builder.fingerprint } : {}) },
    files: parseFiles(raw.files, shown),
    sources: Array.isArray(raw.sources) ? (raw.sources as ReleaseSource[]) : [],
    ...(Array.isArray(raw.args) ? { args: raw.args as string[] } : {}),
    counts: isRecord(raw.counts) ? (raw.counts as Record<string, number>) : {},
  };
}

export function encodeManifest(m: ReleaseManifest): string {
  return JSON.stringify(m, null, 2) + "\n";
}

/** The bytes a release holds, in all. */
export function releaseBytes(files: readonly ReleaseFile[]): number {
  return files.reduce((n, f) => n + f.size, 0);
}
