/**
 * The background scrub, like a RAID or ZFS scrub: every file of every serving release is read
 * and hashed again, a little at each tick, so that each is re-checked once per period
 * (GEODATA_SCRUB_PERIOD_HOURS). Bit rot keeps a file's size and times, so the checks remembered
 * at startup cannot see it; a lookup sees it only when it reads the damaged block. A file whose
 * SHA-256 differs from its release.json is reported as a fault (DatasetRegistry.reportFault),
 * which re-verifies it and falls back (fault-check.ts). Progress is in /health per dataset.
 *
 * Throttled: the bytes of a tick are the serving bytes divided by the ticks of a period, at least
 * 64 KiB and at most 4 MiB (a few milliseconds of hashing), read by positioned reads of 1 MiB
 * through the page cache. Each server process scrubs on its own (its /health speaks for it).
 */
import { createHash, type Hash } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { DATASET_NAMES, type DatasetName } from "../../datasets/catalog.ts";
import { releaseBytes } from "../../datasets/releases/manifest.ts";
import { ReleaseFileError } from "../../datasets/releases/release-file-error.ts";
import type { ServedRelease } from "./open-dataset.ts";
import type { DatasetRegistry, ScrubProgress } from "./registry.ts";

const MIN_TICK_BYTES = 64 * 1024;
const MAX_TICK_BYTES = 4 * 1024 * 1024;
const READ_BYTES = 1024 * 1024;

export type ScrubOptions = {
  registry: DatasetRegistry;
  /** One pass over every serving file takes this long, milliseconds. */
  periodMs: number;
  /** Default 1000 ms. */
  tickMs?: number;
  /** A file found damaged: `file` absolute. */
  onDamage: (dataset: DatasetName, file: string, error: Error) => void;
};

interface Cursor {
  dataset: DatasetName;
  served: ServedRelease;
  index: number;
  offset: number;
  hash: Hash;
  handle: fs.FileHandle | undefined;
  progress: ScrubProgress;
}

export class Scrubber {
  private timer: NodeJS.Timeout | undefined;
  private cursor: Cursor | undefined;
  private busy: Promise<void> | undefined;
  private readonly passes = new Map<string, { passes: number; lastPassAt?: string }>();
  private readonly buffer = Buffer.allocUnsafe(READ_BYTES);

  constructor(private readonly o: ScrubOptions) {}

  start(): void {
    // Every serving release shows its progress from the start, at 0 until its turn comes.
    for (const name of DATASET_NAMES) {
      const served = this.o.registry.servedRelease(name);
      if (served) this.o.registry.setScrub(name, { bytes: releaseBytes(served.manifest.files), checkedBytes: 0, passes: 0 });
    }
    this.timer = setInterval(() => {
      this.busy ??= this.tick().finally(() => (this.busy = undefined));
    }, this.o.tickMs ?? 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.busy;
    await this.cursor?.handle?.close();
    this.cursor = undefined;
  }

  /** Bytes to read at each tick for a pass to take one period. */
  private tickBytes(): number {
    let total = 0;
    for (const name of DATASET_NAMES) total += releaseBytes(this.o.registry.servedRelease(name)?.manifest.files ?? []);
    const ticks = this.o.periodMs / (this.o.tickMs ?? 1000);
    return Math.min(MAX_TICK_BYTES, Math.max(MIN_TICK_BYTES, Math.ceil(total / Math.max(1, ticks))));
  }

  /** Runs one tick's worth of reading and hashing. */
  async tick(budget = this.tickBytes()): Promise<void> {
    while (budget > 0) {
      const c = await this.current();
      if (!c) return;
      const f = c.served.manifest.files[c.index]!;
      const file = path.join(c.served.dir, f.path);
      try {
        c.handle ??= await fs.open(file, "r");
        const { bytesRead } = await c.handle.read(this.buffer, 0, Math.min(READ_BYTES, budget, Math.max(1, f.size - c.offset + 1)), c.offset);
        c.hash.update(this.buffer.subarray(0, bytesRead));
        c.offset += bytesRead;
        c.progress.checkedBytes += bytesRead;
        budget -= Math.max(1, bytesRead);
        if (bytesRead > 0 && c.offset <= f.size) continue;
        const got = c.hash.digest("hex");
        if (c.offset !== f.size) this.o.onDamage(c.dataset, file, new ReleaseFileError(file, file, "size", `${f.size} bytes`, `${c.offset} bytes`));
        else if (got !== f.sha256) this.o.onDamage(c.dataset, file, new ReleaseFileError(file, file, "sha256", `SHA-256 ${f.sha256}`, got));
      } catch (err) {
        this.o.onDamage(c.dataset, file, err as Error);
      }
      await this.nextFile(c);
    }
  }

  /** The file being scrubbed, started afresh when the dataset's release changed; undefined when nothing serves. */
  private async current(): Promise<Cursor | undefined> {
    const c = this.cursor;
    if (c && this.o.registry.servedRelease(c.dataset) === c.served) return c;
    await c?.handle?.close().catch(() => undefined);
    this.cursor = undefined;
    const start = c ? DATASET_NAMES.indexOf(c.dataset) : 0;
    for (let k = 0; k < DATASET_NAMES.length; k++) {
      const dataset = DATASET_NAMES[(start + k) % DATASET_NAMES.length]!;
      const served = this.o.registry.servedRelease(dataset);
      if (served && served.manifest.files.length > 0) return (this.cursor = this.begin(dataset, served));
    }
    return undefined;
  }

  private begin(dataset: DatasetName, served: ServedRelease): Cursor {
    const done = this.passes.get(served.dir) ?? { passes: 0 };
    const progress: ScrubProgress = { bytes: releaseBytes(served.manifest.files), checkedBytes: 0, passes: done.passes, ...(done.lastPassAt ? { lastPassAt: done.lastPassAt } : {}) };
    this.o.registry.setScrub(dataset, progress);
    return { dataset, served, index: 0, offset: 0, hash: createHash("sha256"), handle: undefined, progress };
  }

  private async nextFile(c: Cursor): Promise<void> {
    await c.handle?.close().catch(() => undefined);
    c.handle = undefined;
    c.hash = createHash("sha256");
    c.offset = 0;
    c.index++;
    if (c.index < c.served.manifest.files.length) return;
    // A pass over this release is done: on to the next dataset serving.
    const done = { passes: c.progress.passes + 1, lastPassAt: new Date().toISOString() };
    this.passes.set(c.served.dir, done);
    this.o.registry.setScrub(c.dataset, { ...c.progress, passes: done.passes, lastPassAt: done.lastPassAt });
    const next = DATASET_NAMES[(DATASET_NAMES.indexOf(c.dataset) + 1) % DATASET_NAMES.length]!;
    const served = DATASET_NAMES.slice(DATASET_NAMES.indexOf(next)).concat(DATASET_NAMES).map((d) => [d, this.o.registry.servedRelease(d)] as const).find(([, s]) => s && s.manifest.files.length > 0);
    this.cursor = served ? this.begin(served[0], served[1]!) : undefined;
  }
}
