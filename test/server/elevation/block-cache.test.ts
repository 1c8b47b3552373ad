import { describe, expect, it } from "vitest";
import { BlockCache } from "../../../server/elevation/block-cache.ts";

const block = (n: number): Int16Array => new Int16Array(n); // 2n bytes

describe("BlockCache", () => {
  it("evicts the least recently used blocks beyond its byte budget", () => {
    const cache = new BlockCache(3 * 2048); // three blocks of 1,024 samples
    cache.set(1, block(1024));
    cache.set(2, block(1024));
    cache.set(3, block(1024));
    expect(cache.get(1)).toBeDefined(); // 1 is now the most recent; 2 the least
    cache.set(4, block(1024));
    expect(cache.get(2)).toBeUndefined();
    expect([cache.get(1), cache.get(3), cache.get(4)].every((b) => b !== undefined)).toBe(true);
    expect(cache.stats()).toMatchObject({ blocks: 3, bytes: 3 * 2048, evictions: 1, misses: 1 });
  });

  it("keeps the newest block even when it alone exceeds the budget", () => {
    const cache = new BlockCache(100);
    cache.set(1, block(10));
    cache.set(2, block(1000));
    expect(cache.get(1)).toBeUndefined();
    expect(cache.get(2)?.length).toBe(1000);
  });

  it("replaces a block stored twice without counting it twice", () => {
    const cache = new BlockCache(10_000);
    cache.set(7, block(100));
    cache.set(7, block(100));
    expect(cache.stats()).toMatchObject({ blocks: 1, bytes: 200 });
  });

  it("separates rasters in its keys", () => {
    expect(BlockCache.key(1, 0)).not.toBe(BlockCache.key(0, 1));
    expect(BlockCache.key(2, 5)).toBe(2 * 16_777_216 + 5);
  });
});
