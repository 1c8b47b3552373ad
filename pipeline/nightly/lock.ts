/**
 * One nightly run at a time: `<dataDir>/releases/.nightly.lock` is created exclusively and holds
 * the owner's pid. A lock whose pid is no longer alive (a run killed without cleaning up) is
 * recovered; a live one makes the new run stop before doing anything.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";

export class LockHeldError extends Error {
  override readonly name = "LockHeldError";
  constructor(
    readonly file: string,
    readonly pid: number,
  ) {
    super(`another nightly run holds ${file} (pid ${pid}); not starting`);
  }
}

export interface NightlyLock {
  file: string;
  /** The dead owner's pid when a stale lock was taken over. */
  recoveredFrom: number | undefined;
  release(): Promise<void>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function acquireLock(dataDir: string): Promise<NightlyLock> {
  const file = path.join(dataDir, "releases", ".nightly.lock");
  await fs.mkdir(path.dirname(file), { recursive: true });
  let recoveredFrom: number | undefined;
  for (let tries = 0; tries < 3; tries++) {
    try {
      await fs.writeFile(file, JSON.stringify({ pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() }), { flag: "wx" });
      return { file, recoveredFrom, release: () => fs.rm(file, { force: true }) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    let pid = 0;
    try {
      pid = Number((JSON.parse(await fs.readFile(file, "utf8")) as { pid?: unknown }).pid) || 0;
    } catch {
      pid = 0; // unreadable (half-written by a run that died): stale
    }
    if (pid > 0 && pid !== process.pid && alive(pid)) throw new LockHeldError(file, pid);
    recoveredFrom = pid;
    await fs.rm(file, { force: true });
  }
  throw new Error(`could not take the lock ${file}`);
}
