/**
 * The lock of processes sharing a data directory: held by a live owner it refuses (or makes the
 * caller wait), a dead owner's lock on this host is taken over, and so is one on another host
 * that stopped refreshing it.
 */
import { spawnSync } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireLock, LockHeldError } from "../../../pipeline/releases/lock.ts";
import { until } from "../../helpers/until.ts";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-lock-"));
  file = path.join(dir, "releases", "places", ".lock");
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function writeLock(holder: object, ageMs = 0): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, JSON.stringify(holder));
  const then = new Date(Date.now() - ageMs);
  await fs.utimes(file, then, then);
}

describe("lock", () => {
  it("is taken, refused while held by a live process, and free again once released", async () => {
    const lock = await acquireLock(file, { wait: false });
    expect(lock.recoveredFrom).toBeUndefined();
    expect(JSON.parse(await fs.readFile(file, "utf8"))).toMatchObject({ pid: process.pid, host: os.hostname() });
    // The same process asking again is another owner: refused too.
    await expect(acquireLock(file, { wait: false })).rejects.toBeInstanceOf(LockHeldError);
    await lock.release();
    await expect(fs.access(file)).rejects.toThrow();
    await writeLock({ pid: process.ppid, host: os.hostname(), startedAt: "then" }); // the test runner's parent: alive
    await expect(acquireLock(file, { wait: false })).rejects.toThrow(`another process holds ${file} (pid ${process.ppid} on ${os.hostname()}, since then)`);
  });

  it("makes a second taker wait until the first releases it", async () => {
    const first = await acquireLock(file, { wait: false });
    const order: string[] = [];
    let waiting = (): void => {};
    const seenHeld = new Promise<void>((resolve) => (waiting = resolve));
    const second = acquireLock(file, {
      wait: true,
      pollMs: 20,
      onWait: (h) => {
        order.push(`waiting for ${h.pid}`);
        waiting();
      },
    }).then((l) => {
      order.push("second holds it");
      return l;
    });
    // Released once the second has found it held and waits, whenever that is.
    await seenHeld;
    order.push("first releases it");
    await first.release();
    await (await second).release();
    expect(order).toEqual([`waiting for ${process.pid}`, "first releases it", "second holds it"]);
  });

  it("takes over the lock of a process of this host that is gone", async () => {
    const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
    const deadPid = Number(child.stdout.toString());
    await writeLock({ pid: deadPid, host: os.hostname(), startedAt: "then" });
    const lock = await acquireLock(file, { wait: false });
    expect(lock.recoveredFrom).toMatchObject({ pid: deadPid });
    await lock.release();
  });

  it("keeps the lock of a live process of this host that has not refreshed it (a busy event loop)", async () => {
    await writeLock({ pid: process.pid, host: os.hostname(), startedAt: "then" }, 10_000);
    await expect(acquireLock(file, { wait: false, staleMs: 5_000 })).rejects.toBeInstanceOf(LockHeldError);
  });

  it("takes over a lock of another host only once it is no longer refreshed", async () => {
    await writeLock({ pid: 1, host: "other-host", startedAt: "then" }, 1_000);
    await expect(acquireLock(file, { wait: false, staleMs: 5_000 })).rejects.toBeInstanceOf(LockHeldError);
    await writeLock({ pid: 1, host: "other-host", startedAt: "then" }, 10_000);
    const lock = await acquireLock(file, { wait: false, staleMs: 5_000 });
    expect(lock.recoveredFrom).toMatchObject({ host: "other-host" });
    await lock.release();
  });

  it("refreshes its lock while held", async () => {
    const lock = await acquireLock(file, { wait: false, staleMs: 200 });
    const then = new Date(Date.now() - 60_000);
    await fs.utimes(file, then, then);
    // Refreshed every staleMs / 4 (at least 50 ms): its modification time comes back to now.
    await until("the lock's modification time refreshed", async () => Date.now() - (await fs.stat(file)).mtimeMs < 1_000, 10_000);
    await lock.release();
  });
});
