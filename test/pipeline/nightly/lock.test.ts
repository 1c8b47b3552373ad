/** One nightly at a time: a live owner's lock stops a second run; a dead owner's lock is recovered. */
import { spawnSync } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireLock, LockHeldError } from "../../../pipeline/nightly/lock.ts";

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-lock-"));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function writeLock(pid: number): Promise<void> {
  await fs.mkdir(path.join(dir, "releases"), { recursive: true });
  await fs.writeFile(path.join(dir, "releases", ".nightly.lock"), JSON.stringify({ pid }));
}

describe("nightly lock", () => {
  it("is taken, refused while held by a live process, and free again once released", async () => {
    const lock = await acquireLock(dir);
    expect(lock.recoveredFrom).toBeUndefined();
    expect(JSON.parse(await fs.readFile(lock.file, "utf8"))).toMatchObject({ pid: process.pid });
    await lock.release();
    await writeLock(process.ppid); // the test runner's parent: alive
    await expect(acquireLock(dir)).rejects.toBeInstanceOf(LockHeldError);
  });

  it("recovers the lock of a process that is gone", async () => {
    const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
    const deadPid = Number(child.stdout.toString());
    await writeLock(deadPid);
    const lock = await acquireLock(dir);
    expect(lock.recoveredFrom).toBe(deadPid);
    await lock.release();
  });
});
