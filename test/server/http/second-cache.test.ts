/**
 * The cache of answers that carry the instant, for the second they were computed in: admission,
 * the second and the generation (unit), and, over a socket on the embedded-default data, that an
 * answer served from it is the one computed at the request's own instant, in every coding.
 */
import { describe, expect, it } from "vitest";
import type { CachedAnswer } from "../../../server/http/response-cache.ts";
import { SecondCache } from "../../../server/http/second-cache.ts";
import { cachedAndUncached, type TestServer } from "../../helpers/server.ts";

const answer = (bytes: number): CachedAnswer => ({ body: Buffer.alloc(bytes, 0x20), headers: {}, etag: 'W/"t"', encoded: {} });

describe("SecondCache", () => {
  it("admits a query asked for twice in one second, and serves it for the rest of that second only", () => {
    const cache = new SecondCache(1 << 20);
    expect(cache.get("q", 100, 1)).toBeUndefined();
    expect(cache.admits("q", 100, 1)).toBe(false); // first asking: the key is recorded, nothing kept
    expect(cache.get("q", 100, 1)).toBeUndefined();
    expect(cache.admits("q", 100, 1)).toBe(true);
    const entry = answer(100);
    cache.set("q", 100, 1, entry);
    expect(cache.get("q", 100, 1)).toBe(entry);
    expect(cache.hits).toBe(1);
    // The next second drops everything, the recorded keys too.
    expect(cache.get("q", 101, 1)).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.usedBytes).toBe(0);
    expect(cache.admits("q", 101, 1)).toBe(false);
  });

  it("stores nothing for a second that has passed or datasets that were replaced", () => {
    const cache = new SecondCache(1 << 20);
    cache.admits("q", 100, 1);
    cache.admits("q", 100, 1);
    // A request of the next second arrives while the answer of second 100 is computed.
    expect(cache.get("other", 101, 1)).toBeUndefined();
    cache.set("q", 100, 1, answer(10));
    expect(cache.size).toBe(0);
    expect(cache.get("q", 100, 1)).toBeUndefined(); // an older second is not served either
    cache.set("q", 101, 1, answer(10)); // admitted or not, a set for the current second is kept
    expect(cache.get("q", 101, 1)).toBeDefined();
    expect(cache.get("q", 101, 2)).toBeUndefined(); // a reload empties it
    cache.set("late", 101, 1, answer(10));
    expect(cache.size).toBe(0);
  });

  it("stops admitting once an answer does not fit, counts compressed copies, and is off at 0", () => {
    // Each entry costs its body, its key and 512 bytes: 1,000-byte bodies, two fit in 3,200.
    const cache = new SecondCache(3_200);
    const put = (key: string, bytes: number): CachedAnswer => {
      const entry = answer(bytes);
      cache.set(key, 5, 1, entry);
      return entry;
    };
    const a = put("a", 1000);
    put("b", 1000);
    expect(cache.size).toBe(2);
    cache.addEncoding("a", a, "gzip", Buffer.alloc(100));
    expect(a.encoded.gzip).toBeDefined();
    expect(cache.usedBytes).toBe(2 * (1 + 1000 + 512) + 100);
    cache.addEncoding("a", a, "br", Buffer.alloc(1000)); // over the bound: sent, not kept
    expect(a.encoded.br).toBeUndefined();
    put("c", 1000);
    expect(cache.get("c", 5, 1)).toBeUndefined();
    cache.admits("d", 5, 1);
    expect(cache.admits("d", 5, 1)).toBe(false); // full until the second turns
    expect(cache.admits("d", 6, 1)).toBe(false);
    expect(cache.admits("d", 6, 1)).toBe(true);
    const off = new SecondCache(0);
    expect(off.enabled).toBe(false);
    off.admits("a", 1, 1);
    expect(off.admits("a", 1, 1)).toBe(false);
    off.set("a", 1, 1, answer(10));
    expect(off.get("a", 1, 1)).toBeUndefined();
  });
});

describe("answers that carry the instant over a socket, kept for their second", () => {
  let clock = new Date("2026-11-23T21:00:00.000Z");
  const servers = cachedAndUncached(() => clock);

  const read = async (server: TestServer, target: string, acceptEncoding: string) => {
    const res = await server.get(target, { headers: { "Accept-Encoding": acceptEncoding } });
    // fetch decodes br and gzip itself; Content-Encoding still says what was sent.
    return { status: res.status, text: await res.text(), encoding: res.headers.get("content-encoding"), etag: res.headers.get("etag"), control: res.headers.get("cache-control"), height: res.headers.get("x-forecast-height-correction") };
  };
  // Washington (reverse), Springfield IL by id, Madrid's weather: answers over the compression threshold.
  const targets = ["/geocode/reverse/2/json?lat=38.9&lon=-77.03", "/geocode/id/2/json?id=gn:4140963", "/weather/id/2/json?id=gn:3117735"];

  it("within a second, the answer computed without the cache at the request's own instant, in every coding", async () => {
    for (const target of targets) {
      for (const ms of [0, 400, 999]) {
        clock = new Date(Date.parse("2026-11-23T21:00:00.000Z") + ms);
        for (const acceptEncoding of ["identity", "gzip, deflate, br", "br"]) {
          const reference = await read(servers.uncached, target, acceptEncoding);
          expect(reference.status, target).toBe(200);
          const got = await read(servers.cached, target, acceptEncoding);
          expect(got, `${target} at +${ms} ms, ${acceptEncoding}`).toEqual(reference);
        }
      }
    }
    // Each target was asked for nine times in the second: admitted at the second asking, then served.
    expect(servers.cached.service.secondCache.hits).toBeGreaterThanOrEqual(targets.length * 6);
    expect(servers.uncached.service.secondCache.size).toBe(0);
  });

  it("the next second is computed again, and carries its own instant", async () => {
    const target = targets[2]!;
    clock = new Date("2026-11-23T21:05:00.000Z");
    const first = await read(servers.cached, target, "identity");
    await read(servers.cached, target, "identity");
    const hits = servers.cached.service.secondCache.hits;
    expect((await read(servers.cached, target, "identity")).text).toBe(first.text);
    expect(servers.cached.service.secondCache.hits).toBe(hits + 1);
    clock = new Date("2026-11-23T21:05:01.000Z");
    const next = await read(servers.cached, target, "identity");
    expect(next).toEqual(await read(servers.uncached, target, "identity"));
    expect(JSON.parse(next.text).content.administrative.timezone.UNIXTimestamp).toBe(JSON.parse(first.text).content.administrative.timezone.UNIXTimestamp + 1);
  });

  it("starts afresh when a dataset is reloaded", async () => {
    const target = targets[0]!;
    clock = new Date("2026-11-23T21:10:00.000Z");
    await read(servers.cached, target, "identity");
    await read(servers.cached, target, "identity");
    expect(servers.cached.service.secondCache.size).toBeGreaterThan(0);
    await servers.cached.service.reload();
    const hits = servers.cached.service.secondCache.hits;
    expect(await read(servers.cached, target, "identity")).toEqual(await read(servers.uncached, target, "identity"));
    expect(servers.cached.service.secondCache.hits).toBe(hits);
    expect(servers.cached.service.secondCache.size).toBe(0);
  });
});
