/**
 * The response cache: its bound, recency and generations (unit), and, over a socket on the
 * embedded-default data, that an answer served from it is the answer computed without it: the
 * same bytes in every coding, the same validators, and a recomputation when the data change.
 */
import http from "node:http";
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants, gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ADMISSION_WINDOW_KEYS, ResponseCache, SecondSight, type CachedAnswer } from "../../../server/http/response-cache.ts";
import { BROTLI_QUALITY, COMPRESSION_THRESHOLD_BYTES, GZIP_LEVEL, KEPT_BROTLI_QUALITY, KEPT_GZIP_LEVEL } from "../../../server/http/respond.ts";
import { cachedAndUncached, TEST_KEY, type TestServer } from "../../helpers/server.ts";

const answer = (bytes: number): CachedAnswer => ({ body: { bytes: Buffer.alloc(bytes, 0x20) }, headers: { ETag: '"t"' } });

describe("ResponseCache", () => {
  it("drops the least recently used entries beyond its bound", () => {
    // Each entry costs its 1,000 body bytes, its key and 512 bytes of overhead: ten fit.
    const cache = new ResponseCache(16_000);
    cache.set("a", 1, answer(1000));
    cache.set("b", 1, answer(1000));
    cache.set("c", 1, answer(1000));
    expect(cache.get("a", 1)).toBeDefined(); // a is now the most recent
    for (let k = 0; k < 8; k++) cache.set(`x${k}`, 1, answer(1000));
    expect(cache.usedBytes).toBeLessThanOrEqual(16_000);
    expect(cache.size).toBe(10);
    expect(cache.get("b", 1)).toBeUndefined();
    expect(cache.get("a", 1)).toBeDefined();
  });

  it("keeps one generation: a change of the datasets empties it, an older answer is not stored", () => {
    const cache = new ResponseCache(1 << 20);
    cache.set("a", 1, answer(10));
    expect(cache.get("a", 2)).toBeUndefined();
    expect(cache.size).toBe(0);
    cache.set("b", 2, answer(10));
    cache.set("stale", 1, answer(10));
    expect(cache.get("stale", 2)).toBeUndefined();
    expect(cache.get("b", 2)).toBeDefined();
  });

  it("refuses an answer over an eighth of the bound, counts compressed copies, and is off at 0", () => {
    const cache = new ResponseCache(8_000);
    cache.set("big", 1, answer(2_000));
    expect(cache.get("big", 1)).toBeUndefined();
    const entry = answer(100);
    cache.set("small", 1, entry);
    const before = cache.usedBytes;
    cache.grew("small", entry, 40);
    expect(cache.usedBytes).toBe(before + 40);
    const off = new ResponseCache(0);
    expect(off.enabled).toBe(false);
    off.set("a", 1, answer(10));
    expect(off.get("a", 1)).toBeUndefined();
    expect(off.admits("a") || off.admits("a")).toBe(false);
  });

  it("admits a key on its second sight within the window, never on its first", () => {
    const cache = new ResponseCache(1 << 20);
    expect(cache.admits("a")).toBe(false);
    expect(cache.admits("b")).toBe(false);
    expect(cache.admits("a")).toBe(true);
    expect(cache.admits("a")).toBe(true);
  });

});

describe("SecondSight", () => {
  it("remembers the keys seen once for between one and two windows of new keys", () => {
    const sight = new SecondSight(3);
    for (const k of ["a", "b", "c"]) expect(sight.seenBefore(k)).toBe(false);
    // d opens a new window: a, b and c are still remembered (the older set).
    expect(sight.seenBefore("d")).toBe(false);
    expect(sight.seenBefore("a")).toBe(true);
    for (const k of ["e", "f"]) expect(sight.seenBefore(k)).toBe(false);
    // g opens the third window: the first (a, b, c) is forgotten.
    expect(sight.seenBefore("g")).toBe(false);
    expect(sight.seenBefore("b")).toBe(false);
    expect(sight.seenBefore("e")).toBe(true);
  });

  it("admits few keys never seen: under 0.5 % with two full windows of search keys remembered", () => {
    const sight = new SecondSight();
    const key = (i: number): string => `/geocode/search/2/json release {"q":"place ${i}","limit":10,"offset":0}`;
    // Two full windows (the most remembered at once), then keys never seen.
    for (let i = 0; i < 2 * ADMISSION_WINDOW_KEYS; i++) sight.seenBefore(key(i));
    let admitted = 0;
    for (let i = 0; i < 10_000; i++) if (sight.seenBefore(key(1_000_000 + i))) admitted++;
    // Each filter holds 16,384 keys of two bits: a share 1 - exp(-2 x 16,384 / 2^20) = 3.1 % of its
    // bits set, both of a new key's bits about 0.1 % of the time; either of the two filters, 0.2 %.
    expect(admitted / 10_000).toBeLessThan(0.005);
    // And every key of the newer window is still remembered.
    for (let i = 0; i < 100; i++) expect(sight.seenBefore(key(2 * ADMISSION_WINDOW_KEYS - 1 - i))).toBe(true);
  });

  it("refuses a filter size that is not a power of two", () => {
    expect(() => new SecondSight(3, 1000)).toThrow(/power of two/);
  });
});

describe("cached answers over a socket", () => {
  const start = Date.parse("2026-11-23T21:00:00Z");
  /** The servers' clock: fixed, but for the test that moves it. */
  let instant = start;
  const servers = cachedAndUncached(() => new Date(instant));

  const targets = [
    "/geocode/search/2/json?q=Springfield&limit=20",
    "/elevation/point/2/json?lat=46.5&lon=8.0",
    "/weather/METAR/2/json?id=KJFK",
    "/weather/point/2/json?lat=40.42&lon=-3.7",
  ];
  const read = async (server: TestServer, target: string, acceptEncoding: string) => {
    const res = await server.get(target, { headers: { "Accept-Encoding": acceptEncoding } });
    // fetch decodes br and gzip itself; Content-Encoding still says what was sent.
    return { status: res.status, etag: res.headers.get("etag"), encoding: res.headers.get("content-encoding"), text: await res.text(), headers: res.headers };
  };

  it("gives the answer of the uncached server, in every coding, on the first and the repeated request", async () => {
    for (const target of targets) {
      for (const acceptEncoding of ["identity", "gzip", "br"]) {
        const reference = await read(servers.uncached, target, acceptEncoding);
        expect(reference.status, target).toBe(200);
        const first = await read(servers.cached, target, acceptEncoding);
        const repeated = await read(servers.cached, target, acceptEncoding);
        for (const got of [first, repeated]) {
          expect(got.status, target).toBe(200);
          expect(got.text, `${target} ${acceptEncoding}`).toBe(reference.text);
          expect(got.encoding).toBe(reference.encoding);
          // Station observations are compressed harder when kept, and their ETag says so (the next test).
          const kept = target.startsWith("/weather/METAR/") && reference.encoding !== null ? `${reference.encoding}${reference.encoding === "br" ? KEPT_BROTLI_QUALITY : KEPT_GZIP_LEVEL}` : reference.encoding;
          expect(got.etag).toBe(reference.encoding === null ? reference.etag : reference.etag!.replace(`-${reference.encoding}"`, `-${kept}"`));
          for (const h of ["cache-control", "x-elevation-source", "x-forecast-model", "x-forecast-run", "access-control-allow-origin"]) expect(got.headers.get(h), h).toBe(reference.headers.get(h));
        }
      }
    }
    // Elevation answers are never kept (elevation-point.ts: kept: false).
    const keptTargets = targets.filter((t) => !t.startsWith("/elevation/"));
    expect(servers.cached.service.responseCache.hits).toBeGreaterThanOrEqual(keptTargets.length * 3);
    expect(servers.uncached.service.responseCache.size).toBe(0);
  });

  it("answers that carry the instant are spliced into gzip for a browser, and decode to the identity answer", async () => {
    // Most reverse answers (1.1-1.4 KB) are under the compression threshold; these three are over it.
    for (const target of ["/geocode/reverse/2/json?lat=38.9&lon=-77.03", "/geocode/id/2/json?id=gn:4140963", "/weather/id/2/json?id=gn:3117735"]) {
      for (const server of [servers.cached, servers.uncached]) {
        const identity = await read(server, target, "identity");
        expect(Buffer.byteLength(identity.text), target).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
        const browser = await read(server, target, "gzip, deflate, br");
        const brOnly = await read(server, target, "br");
        expect(browser.encoding, target).toBe("gzip");
        expect(brOnly.encoding, target).toBe("br");
        expect(browser.text, target).toBe(identity.text);
        expect(brOnly.text, target).toBe(identity.text);
        expect(browser.etag).toBe(identity.etag!.replace(/"$/, '-gzip"'));
      }
    }
  });

  it("station observations: compressed harder once when kept, under an ETag that names the level", async () => {
    // The raw bytes as sent (fetch would decode them).
    const raw = (server: TestServer, target: string, acceptEncoding: string) =>
      new Promise<{ etag: string | undefined; encoding: string | undefined; body: Buffer }>((resolve, reject) => {
        http.get(`${server.baseUrl}${target}`, { headers: { "X-Api-Key": TEST_KEY, "Accept-Encoding": acceptEncoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ etag: res.headers.etag, encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
        }).on("error", reject);
      });
    // Buenos Aires Aeroparque's SYNOP history in the embedded excerpt: a few KB of JSON.
    const target = "/weather/SYNOP/2/json?id=87582";
    const identity = await raw(servers.uncached, target, "identity");
    expect(identity.body.byteLength).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    expect((await raw(servers.cached, target, "identity")).etag).toBe(identity.etag);
    for (const [coding, decode, perRequest, keptSuffix] of [
      ["br", brotliDecompressSync, brotliCompressSync(identity.body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }), `-br${KEPT_BROTLI_QUALITY}"`],
      ["gzip", gunzipSync, gzipSync(identity.body, { level: GZIP_LEVEL }), `-gzip${KEPT_GZIP_LEVEL}"`],
    ] as const) {
      // Without the cache: the per-request level, as every other answer.
      const uncachedAnswer = await raw(servers.uncached, target, coding);
      expect(uncachedAnswer.encoding).toBe(coding);
      expect(uncachedAnswer.etag).toBe(identity.etag!.replace(/"$/, `-${coding}"`));
      expect(uncachedAnswer.body.equals(perRequest), coding).toBe(true);
      // Kept: fewer bytes, the same on every request, and a validator of their own.
      const first = await raw(servers.cached, target, coding);
      const repeated = await raw(servers.cached, target, coding);
      for (const got of [first, repeated]) {
        expect(got.encoding).toBe(coding);
        expect(decode(got.body).equals(identity.body)).toBe(true);
        expect(got.etag).toBe(identity.etag!.replace(/"$/, keptSuffix));
        expect(got.body.byteLength, coding).toBeLessThan(perRequest.byteLength);
      }
      expect(repeated.body.equals(first.body)).toBe(true);
      // Its validator revalidates it; the per-request level's does not (other bytes).
      const revalidate = (etag: string) => servers.cached.get(target, { headers: { "Accept-Encoding": coding, "If-None-Match": etag } });
      expect((await revalidate(first.etag!)).status).toBe(304);
      const other = await revalidate(uncachedAnswer.etag!);
      expect(other.status).toBe(200);
      await other.arrayBuffer();
    }
  });

  it("answers If-None-Match from a cached entry with a 304", async () => {
    const first = await read(servers.cached, targets[0]!, "gzip");
    const res = await servers.cached.get(targets[0]!, { headers: { "Accept-Encoding": "gzip", "If-None-Match": first.etag! } });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe("");
  });

  it("keeps no elevation (a lookup costs what a hit does), nor errors", async () => {
    const size = servers.cached.service.responseCache.size;
    // Each asked twice: an answer that may be kept is kept on its second request.
    for (const target of ["/elevation/point/2/json?lat=47.5&lon=9.25", "/elevation/point/2/json?lat=91&lon=0", "/weather/METAR/2/json?id=ZZZZ", "/geocode/id/2/json?id=gn:1"]) {
      for (let i = 0; i < 2; i++) await (await servers.cached.get(target)).arrayBuffer();
    }
    expect(servers.cached.service.responseCache.size).toBe(size);
  });

  it("keeps an answer that carries the instant, and each hit says its own second, as the uncached server does", async () => {
    // Targets not asked by the other tests; the weather by id of Madrid (its slots and current hour).
    const instantTargets = ["/geocode/reverse/2/json?lat=52.52&lon=13.405", "/geocode/id/2/json?id=gn:2950159", "/weather/id/2/json?id=gn:3117735"];
    const base = Date.parse("2026-11-23T22:00:00Z");
    try {
      for (const target of instantTargets) {
        const at = async (offsetSeconds: number, acceptEncoding = "identity") => {
          instant = base + offsetSeconds * 1000;
          const hits = servers.cached.service.responseCache.hits;
          const got = await read(servers.cached, target, acceptEncoding);
          const reference = await read(servers.uncached, target, acceptEncoding);
          expect(got.status, target).toBe(200);
          expect(got.text, `${target} at +${offsetSeconds} s`).toBe(reference.text);
          expect([got.etag, got.encoding, got.headers.get("cache-control")]).toEqual([reference.etag, reference.encoding, reference.headers.get("cache-control")]);
          return { text: got.text, hit: servers.cached.service.responseCache.hits > hits };
        };
        // Computed, computed and kept (its second sight), then hits later in the same minute.
        expect((await at(1)).hit).toBe(false);
        const kept = await at(2);
        expect(kept.hit).toBe(false);
        const later = await at(47);
        expect(later.hit, target).toBe(true);
        // The hit says its own instant: 45 s later than the answer it was kept from.
        const unix = (text: string) => (JSON.parse(text) as { content: { administrative: { timezone: { UNIXTimestamp: number } } } }).content.administrative.timezone.UNIXTimestamp;
        expect(unix(later.text) - unix(kept.text)).toBe(45);
        // A browser's coding: spliced from the kept parts, and decoding to the uncached server's answer.
        expect((await at(48, "gzip, deflate, br")).hit).toBe(true);
        // The next minute is another key (the ETag changes with the minute).
        expect((await at(61)).hit).toBe(false);
      }
    } finally {
      instant = start;
    }
  });

  it("starts afresh when a dataset is reloaded", async () => {
    await (await servers.cached.get(targets[0]!)).arrayBuffer();
    expect(servers.cached.service.responseCache.size).toBeGreaterThan(0);
    const generation = servers.cached.service.registry.generation;
    await servers.cached.service.reload();
    expect(servers.cached.service.registry.generation).toBeGreaterThan(generation);
    const again = await read(servers.cached, targets[0]!, "identity");
    expect(again.status).toBe(200);
    expect(servers.cached.service.responseCache.size).toBe(1);
  });
  it("gives a kept forecast the age of its run at the instant of the answer, not of the answer kept", async () => {
    // Within one quarter hour (the key's bucket): the first answer is computed, the second computed
    // and kept (a key is kept on its second sight), the third is the kept one, ten minutes later.
    const target = "/weather/point/2/json?lat=47.37&lon=8.54";
    try {
      const seen: { etag: string | null; run: string | null; age: number }[] = [];
      for (const offsetSeconds of [0, 1, 600]) {
        instant = start + offsetSeconds * 1000;
        const got = await read(servers.cached, target, "identity");
        expect(got.status).toBe(200);
        const run = got.headers.get("x-forecast-run");
        seen.push({ etag: got.etag, run, age: Number(got.headers.get("x-forecast-run-age")) });
        expect(got.headers.get("x-forecast-run-age")).toBe(String(Math.floor((instant - Date.parse(run!)) / 1000)));
        expect(got.headers.get("x-forecast-run-age")).toBe((await read(servers.uncached, target, "identity")).headers.get("x-forecast-run-age"));
      }
      expect(seen[2]!.age - seen[0]!.age).toBe(600);
      expect(new Set(seen.map((s) => s.etag)).size).toBe(1);
    } finally {
      instant = start;
    }
  });
});
