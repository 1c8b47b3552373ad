/**
 * One nightly run at a time per data directory: `<dataDir>/releases/.nightly.lock`
 * (pipeline/releases/lock.ts). A live owner's lock makes a new run stop before doing anything; a
 * lock whose owner is gone (a run killed without cleaning up) is taken over.
 */
import path from "node:path";
import { acquireLock, type HeldLock } from "../releases/lock.ts";

export async function acquireNightlyLock(dataDir: string): Promise<HeldLock> {
  return acquireLock(path.join(dataDir, "releases", ".nightly.lock"), { wait: false });
}
