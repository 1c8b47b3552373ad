/**
 * The pointer poll of Reloader on a fake clock: a pass every GEODATA_RELEASE_POLL_MS, and none at
 * all when it is 0 (the setting sighup.test.ts runs the real server with); and the watch of the
 * releases folders, on the real file system: a pointer written the way the pipeline writes it
 * starts a pass at once, the poll an hour away.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { releasesRoot } from "../../../datasets/releases/layout.ts";
import { pointAt } from "../../helpers/releases.ts";
import { until } from "../../helpers/until.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { DatasetRegistry } from "../../../server/datasets/registry.ts";
import { Reloader } from "../../../server/datasets/reload.ts";
import { LOADERS } from "../../../server/loaders.ts";

afterEach(() => {
  vi.useRealTimers();
});

function reloaderWithCountedPasses(dataDir = "/nonexistent"): { reloader: Reloader; passes: () => number } {
  const reloader = new Reloader({ config: readConfig({ GEODATA_DATA_DIR: dataDir }), logger: silentLogger, registry: new DatasetRegistry(), loaders: LOADERS });
  const spy = vi.spyOn(reloader, "reloadAll").mockResolvedValue([]);
  return { reloader, passes: () => spy.mock.calls.length };
}

describe("Reloader.startPolling", () => {
  it("never polls at an interval of 0", async () => {
    vi.useFakeTimers();
    const { reloader, passes } = reloaderWithCountedPasses();
    reloader.startPolling(0);
    // No timer at all (advancing a fake clock over a 0 ms interval would never return).
    expect(vi.getTimerCount()).toBe(0);
    expect(passes()).toBe(0);
    await reloader.stop();
  });

  it("polls once per interval", async () => {
    vi.useFakeTimers();
    const { reloader, passes } = reloaderWithCountedPasses();
    reloader.startPolling(100);
    vi.advanceTimersByTime(99);
    expect(passes()).toBe(0);
    vi.advanceTimersByTime(251);
    expect(passes()).toBe(3);
    await reloader.stop();
    vi.advanceTimersByTime(1000);
    expect(passes()).toBe(3);
  });

  it("starts a pass as soon as a pointer is written, through the watch of its releases folder", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-watch-"));
    // Only places has a releases folder: the others are not watched (the poll looks for them).
    await fs.mkdir(releasesRoot(dir, "places"), { recursive: true });
    const { reloader, passes } = reloaderWithCountedPasses(dir);
    try {
      reloader.startPolling(3_600_000);
      expect(passes()).toBe(0);
      await pointAt(dir, "places", "20261102T000000Z");
      await until("a pass started by the pointer's watch", () => passes() > 0, 10_000, 5);
    } finally {
      await reloader.stop();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
