import { describe, expect, it } from "vitest";
import { mapConcurrently } from "../../../pipeline/common/map-concurrently.ts";

const tick = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe("mapConcurrently", () => {
  it("returns results in the items' order whatever order they finish in", async () => {
    const out = await mapConcurrently([30, 5, 20, 1, 10], 3, async (ms) => {
      await tick(ms);
      return ms * 2;
    });
    expect(out).toEqual([60, 10, 40, 2, 20]);
  });

  it("never runs more than `limit` calls at once", async () => {
    let running = 0;
    let most = 0;
    await mapConcurrently(Array.from({ length: 20 }, (_, k) => k), 4, async (k) => {
      running++;
      most = Math.max(most, running);
      await tick(k % 3);
      running--;
    });
    expect(most).toBe(4);
  });

  it("rejects with the first failure once the started calls have finished, and starts no more", async () => {
    const started: number[] = [];
    let finished = 0;
    const run = mapConcurrently([0, 1, 2, 3, 4, 5], 2, async (k) => {
      started.push(k);
      await tick(k === 1 ? 1 : 10);
      if (k === 1) throw new Error(`item ${k} failed`);
      finished++;
    });
    await expect(run).rejects.toThrow("item 1 failed");
    expect(started).toEqual([0, 1]);
    expect(finished).toBe(1);
  });

  it("handles no items", async () => {
    expect(await mapConcurrently([], 4, async () => 1)).toEqual([]);
  });
});
