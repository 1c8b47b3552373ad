/**
 * Atomic publication of artifacts: write beside the final path, fsync, rename into place.
 * A reader never sees a half-written file, and a failed build leaves the previous one serving.
 */
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";

export function temporaryPathFor(finalPath: string): string {
  return `${finalPath}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
}

/** Writes chunks to a temporary file, fsyncs it, and renames it over `finalPath`. */
export async function writeFileAtomic(finalPath: string, chunks: readonly Uint8Array[]): Promise<void> {
  await fs.mkdir(path.dirname(finalPath), { recursive: true });
  const tmp = temporaryPathFor(finalPath);
  const handle = await fs.open(tmp, "w");
  try {
    for (const chunk of chunks) await handle.write(chunk);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await fs.rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  await fs.rename(tmp, finalPath);
}

/**
 * Publishes a directory built at `builtDir` as `finalDir`: the old directory (if any) is moved
 * aside, the new one renamed into place, then the old one removed. Between the two renames a
 * reader may briefly find no directory; readers open the directory's index file once at startup.
 */
export async function publishDirectory(builtDir: string, finalDir: string): Promise<void> {
  const old = `${finalDir}.old-${process.pid}-${randomBytes(4).toString("hex")}`;
  let moved = false;
  try {
    await fs.rename(finalDir, old);
    moved = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  try {
    await fs.rename(builtDir, finalDir);
  } catch (err) {
    if (moved) await fs.rename(old, finalDir);
    throw err;
  }
  if (moved) await fs.rm(old, { recursive: true, force: true });
}
