/**
 * An exclusive lock file for processes sharing one data directory, possibly from several hosts
 * (a network file system): created with O_EXCL, holding `{ pid, host, token, startedAt }`, its
 * modification time refreshed every `staleMs / 4` while held. A lock is stale, and taken over,
 * when its owner is a process of this host that is gone (a live owner of this host keeps it,
 * refreshed or not), or when an owner on another host has not refreshed it for `staleMs` (it
 * died). Used for the nightly run
 * (`releases/.nightly.lock`) and for every writer of a dataset's releases
 * (`releases/<dataset>/.lock`: build-default, the nightly, a step run by hand, sync).
 */
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { processAlive } from "../common/process-alive.ts";

export class LockHeldError extends Error {
  override readonly name = "LockHeldError";
  constructor(
    readonly file: string,
    readonly holder: LockHolder,
  ) {
    super(`another process holds ${file} (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt})`);
  }
}

export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
  token?: string;
}

export interface HeldLock {
  file: string;
  /** The owner whose stale lock was taken over, if any. */
  recoveredFrom: LockHolder | undefined;
  release(): Promise<void>;
}

export type LockOptions = {
  /** Wait for a live owner to release it (polling), instead of throwing LockHeldError. */
  wait: boolean;
  /** A lock not refreshed for this long is stale (default 60 s). */
  staleMs?: number;
  /** Polling interval while waiting (default 500 ms). */
  pollMs?: number;
  /** Called once when the lock is found held and the caller waits. */
  onWait?: (holder: LockHolder) => void;
};

/** The current owner, or undefined when the lock is free or stale. */
async function liveHolder(file: string, staleMs: number): Promise<{ holder: LockHolder; stale: boolean; text: string } | undefined> {
  let text: string;
  let mtimeMs: number;
  try {
    [text, mtimeMs] = await Promise.all([fs.readFile(file, "utf8"), fs.stat(file).then((s) => s.mtimeMs)]);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  let holder: LockHolder;
  try {
    const raw = JSON.parse(text) as Partial<LockHolder>;
    holder = { pid: Number(raw.pid) || 0, host: String(raw.host ?? ""), startedAt: String(raw.startedAt ?? ""), ...(raw.token ? { token: raw.token } : {}) };
  } catch {
    // Half-written by an owner that died while creating it, unless it is brand new.
    return { holder: { pid: 0, host: "", startedAt: "" }, stale: Date.now() - mtimeMs > 2_000, text };
  }
  const sameHost = holder.host === os.hostname() || holder.host === "";
  // On this host the process table is the truth: a live owner whose event loop is busy (a long
  // synchronous build step on a loaded machine) can miss its refreshes, and must keep its lock.
  const stale = sameHost ? !processAlive(holder.pid) : Date.now() - mtimeMs > staleMs;
  return { holder, stale, text };
}

/** Takes the lock at `file` (its directory created). */
export async function acquireLock(file: string, options: LockOptions): Promise<HeldLock> {
  const staleMs = options.staleMs ?? 60_000;
  await fs.mkdir(path.dirname(file), { recursive: true });
  const me: LockHolder = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString(), token: randomBytes(8).toString("hex") };
  let recoveredFrom: LockHolder | undefined;
  let told = false;
  for (;;) {
    try {
      await fs.writeFile(file, JSON.stringify(me), { flag: "wx" });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const held = await liveHolder(file, staleMs);
    if (held?.stale) {
      recoveredFrom = held.holder;
      // Moved aside (atomic), then checked: if another taker replaced the stale lock with its own
      // in between, that one is put back (link fails if a third created one meanwhile).
      const aside = `${file}.stale-${me.token}`;
      if (await fs.rename(file, aside).then(() => true, () => false)) {
        if ((await fs.readFile(aside, "utf8").catch(() => held.text)) !== held.text) await fs.link(aside, file).catch(() => undefined);
        await fs.rm(aside, { force: true });
      }
      continue;
    }
    if (!held) continue;
    if (!options.wait) throw new LockHeldError(file, held.holder);
    if (!told) options.onWait?.(held.holder);
    told = true;
    await new Promise((r) => setTimeout(r, options.pollMs ?? 500));
  }
  const refresh = setInterval(() => {
    const now = new Date();
    void fs.utimes(file, now, now).catch(() => undefined);
  }, Math.max(50, staleMs / 4));
  refresh.unref();
  return {
    file,
    recoveredFrom,
    async release() {
      clearInterval(refresh);
      // Remove it only if it is still ours (a takeover after a long stall leaves another owner's).
      const text = await fs.readFile(file, "utf8").catch(() => "");
      if (text.includes(me.token!)) await fs.rm(file, { force: true });
    },
  };
}
