/**
 * Builds the embedded-default datasets a test needs, once, into a data directory shared by all
 * test files (vitest runs files in parallel workers, so builds are serialised by a lock
 * directory). A dataset already built from the same inputs is not rebuilt.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { readConfig } from "../../datasets/common/config.ts";
import { createLogger } from "../../datasets/common/log.ts";
import { PROJECT_ROOT } from "../../datasets/common/paths.ts";
import { buildDefault } from "../../pipeline/build-default.ts";

export const TEST_DATA_DIR = path.join(PROJECT_ROOT, ".cache", "test-data");
const LOCK = `${TEST_DATA_DIR}.lock`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function withLock<T>(fn: () => Promise<T>): Promise<T> {
  await fs.mkdir(path.dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      await fs.mkdir(LOCK);
      await fs.writeFile(path.join(LOCK, "pid"), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = Number(await fs.readFile(path.join(LOCK, "pid"), "utf8").catch(() => "0"));
      if (pid > 0 && !alive(pid)) await fs.rm(LOCK, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    await fs.rm(LOCK, { recursive: true, force: true });
  }
}

/** Builds (if stale) the embedded default of these pipeline steps; returns the data directory. */
export async function ensureDefaultData(steps: readonly string[]): Promise<string> {
  const config = readConfig({ GEODATA_DATA_DIR: TEST_DATA_DIR, GEODATA_LOG_LEVEL: "warn" });
  await withLock(() => buildDefault(config, createLogger({ minLevel: "warn" }), { only: steps }));
  return TEST_DATA_DIR;
}
