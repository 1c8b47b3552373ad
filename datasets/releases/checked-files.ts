/**
 * The checks remembered (FORMAT.md "Checks remembered"): which version of a file was found to
 * have which SHA-256, kept on disk in `<dataDir>/releases/.checked.json` so that a restart over
 * unchanged files does not hash them again (18.5 GB of elevation tiles at full size). A file's
 * version is its device, inode, size, modification and status-change times (ns): writing a
 * file changes its mtime and its ctime, and ctime cannot be set back by hand (`touch -d` sets
 * mtime only), so a file changed after it was remembered is hashed again, and refused if it
 * differs. A hard link shares its inode's version: the releases that link the previous one's
 * files are remembered with it.
 *
 * Every writer (sync, a build, the server's checks, each server worker) reads the file afresh
 * when it saves, applies its own additions and removals, and renames a new file over it. Two
 * writers saving at once may lose one's additions: that costs a hash at the next start, never a
 * wrong answer, since an entry only ever says what a version of a file held.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../artifact/atomic-write.ts";

export const CHECKED_FILE = ".checked.json";
const CHECKED_FORMAT = "geodata-checked";
const CHECKED_VERSION = 1;

/** `dev:ino:size:mtimeNs:ctimeNs` of a file, or undefined when it is not there. */
export async function fileVersion(file: string): Promise<string | undefined> {
  try {
    const s = await fs.stat(file, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

interface Entry {
  sha256: string;
  /** One path of the file, relative to the data directory (`/`-separated): entries whose file is gone are dropped. */
  path: string;
  /** When it was hashed (ISO 8601). */
  at: string;
}

function parseEntries(text: string): Map<string, Entry> {
  const raw = JSON.parse(text) as { format?: unknown; formatVersion?: unknown; files?: unknown };
  if (raw.format !== CHECKED_FORMAT || raw.formatVersion !== CHECKED_VERSION || typeof raw.files !== "object" || raw.files === null) {
    throw new Error(`expected ${CHECKED_FORMAT} version ${CHECKED_VERSION}, got ${JSON.stringify(raw.format)} version ${JSON.stringify(raw.formatVersion)}`);
  }
  const out = new Map<string, Entry>();
  for (const [version, e] of Object.entries(raw.files as Record<string, Partial<Entry>>)) {
    if (typeof e?.sha256 === "string" && /^[0-9a-f]{64}$/.test(e.sha256) && typeof e.path === "string" && typeof e.at === "string") out.set(version, { sha256: e.sha256, path: e.path, at: e.at });
  }
  return out;
}

export class CheckedFiles {
  /** Changes since the last save, applied over what the file holds then. */
  private readonly added = new Map<string, Entry>();
  private readonly removed = new Set<string>();

  private constructor(
    readonly dataDir: string,
    private entries: Map<string, Entry>,
    /** Why the file on disk could not be read (it is then rewritten whole at the next save). */
    public unreadable: string | undefined,
  ) {}

  /** The memory of `dataDir`: empty when there is none yet, or when it is unreadable (see `unreadable`). */
  static async open(dataDir: string): Promise<CheckedFiles> {
    const { entries, unreadable } = await CheckedFiles.read(dataDir);
    return new CheckedFiles(dataDir, entries, unreadable);
  }

  private static async read(dataDir: string): Promise<{ entries: Map<string, Entry>; unreadable: string | undefined }> {
    let text: string;
    try {
      text = await fs.readFile(path.join(dataDir, "releases", CHECKED_FILE), "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return { entries: new Map(), unreadable: undefined };
      return { entries: new Map(), unreadable: (err as Error).message };
    }
    try {
      return { entries: parseEntries(text), unreadable: undefined };
    } catch (err) {
      return { entries: new Map(), unreadable: `releases/${CHECKED_FILE}: ${(err as Error).message}` };
    }
  }

  get file(): string {
    return path.join(this.dataDir, "releases", CHECKED_FILE);
  }

  /** The SHA-256 remembered for this version of a file, if any. */
  sha256Of(version: string): string | undefined {
    return this.entries.get(version)?.sha256;
  }

  /** Remembers that the file at `file` (absolute), at `version`, holds `sha256`. */
  remember(version: string, sha256: string, file: string): void {
    const entry = { sha256, path: path.relative(this.dataDir, file).split(path.sep).join("/"), at: new Date().toISOString() };
    this.entries.set(version, entry);
    this.added.set(version, entry);
    this.removed.delete(version);
  }

  /** Forgets a version (found to differ from what it was remembered with). */
  forget(version: string): void {
    this.entries.delete(version);
    this.added.delete(version);
    this.removed.add(version);
  }

  get dirty(): boolean {
    return this.added.size > 0 || this.removed.size > 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Writes the memory (atomically), merged with what other writers saved meanwhile; entries
   * whose file is gone or changed are dropped on the way.
   */
  async save(): Promise<void> {
    if (!this.dirty && this.unreadable === undefined) return;
    const merged = (await CheckedFiles.read(this.dataDir)).entries;
    for (const v of this.removed) merged.delete(v);
    for (const [v, e] of this.added) merged.set(v, e);
    const live = new Map<string, Entry>();
    for (const [v, e] of merged) {
      if ((await fileVersion(path.join(this.dataDir, ...e.path.split("/"))).catch(() => undefined)) === v) live.set(v, e);
    }
    const files = Object.fromEntries([...live].sort((a, b) => (a[1].path < b[1].path ? -1 : a[1].path > b[1].path ? 1 : 0)));
    await writeFileAtomic(this.file, [Buffer.from(JSON.stringify({ format: CHECKED_FORMAT, formatVersion: CHECKED_VERSION, files }) + "\n")]);
    this.entries = live;
    this.unreadable = undefined;
    this.added.clear();
    this.removed.clear();
  }
}

/** Two versions of one file that differ only in ctime (a link made or removed: the bytes untouched). */
function onlyCtimeDiffers(a: string, b: string): boolean {
  return a !== b && a.slice(0, a.lastIndexOf(":")) === b.slice(0, b.lastIndexOf(":"));
}

/**
 * Runs `op`, which only makes or removes hard links of `files` (seeding a release from the
 * previous one, pruning a release that shares files with the kept ones), and carries each
 * remembered check of those files over the ctime change it causes. Only writers holding the
 * dataset's lock call it: nothing else writes the files meanwhile.
 */
export async function keepingChecks<T>(checked: CheckedFiles, files: readonly string[], op: () => Promise<T>): Promise<T> {
  const before = new Map<string, string>();
  for (const f of files) {
    const v = await fileVersion(f);
    if (v !== undefined && checked.sha256Of(v) !== undefined) before.set(f, v);
  }
  const out = await op();
  for (const [f, v] of before) {
    const now = await fileVersion(f);
    if (now !== undefined && onlyCtimeDiffers(now, v)) checked.remember(now, checked.sha256Of(v)!, f);
  }
  return out;
}
