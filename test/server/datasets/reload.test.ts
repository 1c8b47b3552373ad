/**
 * The pointer poll of Reloader on a fake clock: a pass every GEODATA_RELEASE_POLL_MS, and none at
 * all when it is 0 (the setting sighup.test.ts runs the real server with).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { readConfig } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { DatasetRegistry } from "../../../server/datasets/registry.ts";
import { Reloader } from "../../../server/datasets/reload.ts";
import { LOADERS } from "../../../server/loaders.ts";

afterEach(() => {
  vi.useRealTimers();
});

function reloaderWithCountedPasses(): { reloader: Reloader; passes: () => number } {
  const reloader = new Reloader({ config: readConfig({ GEODATA_DATA_DIR: "/nonexistent" }), logger: silentLogger, registry: new DatasetRegistry(), loaders: LOADERS });
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
});
