/**
 * The check a release passes before anything serves it, the same in the server (before it swaps a
 * release in) and in `sync` (before it points at one): read its release.json, then every file it
 * lists must be there with its size (a file not there yet, or shorter, makes the release
 * *pending*: still being copied), then with its SHA-256 (any difference refuses the release whole).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { DatasetName } from "../catalog.ts";
import type { CheckedFiles } from "./checked-files.ts";
import { sha256Files } from "./hash-files.ts";
import { MANIFEST_FILE } from "./layout.ts";
import { parseManifest, type ReleaseFile, type ReleaseManifest } from "./manifest.ts";
import { ReleaseFileError } from "./release-file-error.ts";

/** A release whose files are not all there yet: retried later, neither served nor refused. */
export class PendingReleaseError extends Error {
  override readonly name = "PendingReleaseError";
  constructor(
    readonly release: string,
    readonly reason: string,
  ) {
    super(`release ${release} is not complete yet: ${reason}`);
  }
}

export type ShowPath = (relativePath: string) => string;

/** What a check read: the files listed, and of them those hashed (not remembered) and their bytes. */
export interface CheckCost {
  files: number;
  hashed: number;
  hashedBytes: number;
}

/** The manifest of the release in `dir`; undefined when the directory or its release.json is not there (yet). */
export async function readManifest(dir: string, show: ShowPath, expected: { dataset: DatasetName; id: string }): Promise<ReleaseManifest | undefined> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dir, MANIFEST_FILE), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  return parseManifest(text, show(MANIFEST_FILE), expected);
}

/** Undefined when every file is there with its size; else why the release is pending. A file longer than listed throws. */
export async function missingFiles(dir: string, files: readonly ReleaseFile[], show: ShowPath): Promise<string | undefined> {
  const absent: string[] = [];
  for (const f of files) {
    const size = (await fs.stat(path.join(dir, f.path)).catch(() => undefined))?.size;
    if (size === undefined) absent.push(`${show(f.path)} is not there`);
    else if (size < f.size) absent.push(`${show(f.path)} has ${size} of ${f.size} bytes`);
    else if (size > f.size) throw new ReleaseFileError(show(f.path), show(f.path), "size", `${f.size} bytes`, `${size} bytes`);
  }
  if (absent.length === 0) return undefined;
  return `${absent.slice(0, 3).join("; ")}${absent.length > 3 ? ` (and ${absent.length - 3} more)` : ""}`;
}

/** Each file's version (inode, size, modification time), to tell a file being replaced from a damaged one. */
async function versions(dir: string, files: readonly ReleaseFile[]): Promise<string> {
  const out: string[] = [];
  for (const f of files) {
    const s = await fs.stat(path.join(dir, f.path), { bigint: true }).catch(() => undefined);
    out.push(s ? `${s.ino}:${s.size}:${s.mtimeNs}` : "-");
  }
  return out.join(" ");
}

/**
 * Hashes every file (off the event loop) but those whose version `checked` remembers, and throws
 * ReleaseFileError for the first whose SHA-256 differs. A file that changed while it was hashed
 * (still being written or replaced by a copy) makes the release pending instead: `id` names it
 * then.
 */
export async function checkHashes(dir: string, files: readonly ReleaseFile[], show: ShowPath, id: string, checked?: CheckedFiles): Promise<CheckCost> {
  const before = await versions(dir, files);
  const cost: CheckCost = { files: files.length, hashed: 0, hashedBytes: 0 };
  const onHashed = (i: number): void => {
    cost.hashed++;
    cost.hashedBytes += files[i]!.size;
  };
  let sums: string[];
  try {
    sums = await sha256Files(files.map((f) => path.join(dir, f.path)), checked ? { checked, onHashed } : { onHashed });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    throw new PendingReleaseError(id, `a file went away while it was checked (${(err as Error).message.replace(dir + path.sep, "")})`);
  }
  const bad = files.findIndex((f, i) => sums[i] !== f.sha256);
  if (bad < 0) return cost;
  if ((await versions(dir, files)) !== before) throw new PendingReleaseError(id, "files changed while they were checked");
  const f = files[bad]!;
  throw new ReleaseFileError(show(f.path), show(f.path), "sha256", `SHA-256 ${f.sha256}`, sums[bad]!);
}

/**
 * The whole check of the release `id` in `dir`: its manifest (DataFormatError when invalid, one
 * without a file list included), every file there (else PendingReleaseError), every checksum
 * (else ReleaseFileError; files `checked` remembers at their version are not read).
 */
export async function verifyRelease(dir: string, expected: { dataset: DatasetName; id: string }, show: ShowPath, checked?: CheckedFiles): Promise<{ manifest: ReleaseManifest; cost: CheckCost }> {
  const manifest = await readManifest(dir, show, expected);
  if (!manifest) throw new PendingReleaseError(expected.id, `${show(MANIFEST_FILE)} is not there`);
  const missing = await missingFiles(dir, manifest.files, show);
  if (missing !== undefined) throw new PendingReleaseError(expected.id, missing);
  const cost = await checkHashes(dir, manifest.files, show, expected.id, checked);
  return { manifest, cost };
}
