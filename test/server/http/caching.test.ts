/**
 * The layers between the key and the handler, alone: route and parse (404, 400, 503, the datasets
 * and their states), and the caching layers (Cache-Control, the response cache, the ETag).
 */
import { describe, expect, it } from "vitest";
import { parseLatitude } from "../../../server/api/params.ts";
import type { DatasetRegistry, DatasetState } from "../../../server/datasets/registry.ts";
import type { Endpoint } from "../../../server/endpoints/endpoint.ts";
import type { LoadedDatasets } from "../../../server/endpoints/loaded-datasets.ts";
import { identityTag, tagDigest, tagPrefix } from "../../../server/http/cache.ts";
import { freshness, keep, validator } from "../../../server/http/caching.ts";
import { answerOf, compose, type Answer, type Exchange } from "../../../server/http/exchange.ts";
import { parse, route } from "../../../server/http/route.ts";
import { ResponseCache } from "../../../server/http/response-cache.ts";
import { identityBytes, wireAnswer } from "../../../server/http/wire.ts";
import { Fragment } from "../../../server/api/body-parts.ts";
import { InstantPart } from "../../../server/api/instant-part.ts";

const states: DatasetState[] = [
  { name: "places", status: "ready", formatVersion: 3, builtAt: "2026-11-01T10:00:00.000Z" },
  { name: "forecast", status: "ready", formatVersion: 3, facts: { models: [{ model: "cmc-gdps", runs: ["2026-11-23T12:00:00Z"], runHours: [0, 12] }] } },
  { name: "admin", status: "missing", formatVersion: 1 },
];
/** A registry holding stand-ins for places and forecast; admin is not loaded. */
const registry = {
  generation: 7,
  isReady: (name: string) => name === "places" || name === "forecast",
  get: (name: string) => ({ stand: name }),
  list: () => states,
} as unknown as DatasetRegistry<LoadedDatasets>;

const endpoint = (cache: Endpoint["cache"], datasets: Endpoint["datasets"] = ["places"]): Endpoint =>
  ({ path: "/e/2/json", summary: "", params: ["lat"], datasets, optionalDatasets: ["admin", "forecast"], cache, parse: (q) => ({ lat: parseLatitude(q) }), handle: () => ({ content: {} }) }) as Endpoint;
const exchange = (query: string, e?: Endpoint): Exchange => ({
  req: { method: "GET", url: "/", headers: {}, hasBody: false },
  now: new Date("2026-11-23T20:00:10Z"),
  route: "unknown",
  path: "/e/2/json",
  query: new URLSearchParams(query),
  ...(e ? { endpoint: e } : {}),
});
const ok = (): Promise<Answer> => Promise.resolve(answerOf(200, Buffer.from('{"status":"OK","code":200,"content":{}}')));

describe("route and parse", () => {
  it("finds the endpoint and its foreign API by path, and leaves an unknown path to parse's 404", async () => {
    const foreign = { errorBody: () => Buffer.alloc(0) };
    const e = { ...endpoint("release"), foreign };
    const x = exchange("");
    await route([e])(x, ok);
    expect([x.endpoint, x.foreign]).toEqual([e, foreign]);
    const unknown = { ...exchange(""), path: "/nope" };
    await route([e])(unknown, ok);
    expect(() => parse(registry)(unknown, ok)).toThrow(expect.objectContaining({ status: 404 }));
  });
  it("parses the parameters (400), takes the required and the loaded optional datasets, with their states", async () => {
    const x = exchange("lat=52.50", endpoint("release"));
    await parse(registry)(x, ok);
    expect(x.route).toBe("/e/2/json");
    expect(x.params).toEqual({ lat: 52.5 });
    expect(x.used).toEqual(["places", "forecast"]);
    expect(x.data).toEqual({ places: { stand: "places" }, forecast: { stand: "forecast" } });
    // CMC's 12 UTC run: the 00 UTC one is due at 05 UTC the next day.
    expect(x.states?.runsDue).toEqual([Date.parse("2026-11-24T05:00:00Z")]);
    expect(() => parse(registry)(exchange("lat=91", endpoint("release")), ok)).toThrow(expect.objectContaining({ status: 400 }));
  });
  it("answers 503 naming a required dataset that is not loaded", () => {
    expect(() => parse(registry)(exchange("lat=1", endpoint("release", ["places", "admin"])), ok)).toThrow(/admin/);
  });
});

describe("caching layers", () => {
  const apiTag = () => "api";
  /** parse, then the three caching layers, then a handler that counts its calls. */
  const stack = (cache: ResponseCache | undefined) => {
    let calls = 0;
    const run = compose([parse(registry), freshness, keep(cache), validator(apiTag)], () => {
      calls++;
      return ok();
    });
    return { run, calls: () => calls };
  };

  it("gives a 200 its Cache-Control and the documented ETag of the parameters serialized once", async () => {
    const { run } = stack(undefined);
    const x = exchange("lat=52.50", endpoint("release"));
    const a = await run(x);
    expect(x.paramsJson).toBe('{"lat":52.5}');
    expect(a.headers["Cache-Control"]).toBe("public, max-age=86400");
    // Kept per key by any cache: another key (or none) must get its own answer, a 401.
    expect(a.headers.Vary).toBe("X-Api-Key");
    expect(a.headers.ETag).toBe(identityTag(tagDigest(tagPrefix("api", "/e/2/json", [states[0]!, states[1]!]), null), "release", '{"lat":52.5}'));
    const instant = await run(exchange("lat=1", endpoint("instant")));
    expect(instant.headers.ETag).toMatch(/^W\//);
    expect(instant.headers["Cache-Control"]).toBe("public, max-age=50");
  });
  it("leaves an endpoint without a policy uncached and untagged", async () => {
    const a = await stack(new ResponseCache(1 << 20)).run(exchange("lat=1", endpoint(undefined)));
    expect(a.headers).toEqual({});
  });
  it("keeps an answer on its second request and answers the third from it, with the same ETag", async () => {
    const cache = new ResponseCache(1 << 20);
    const { run, calls } = stack(cache);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await run(exchange("lat=52.5", endpoint("forecast"))));
    expect(calls()).toBe(2);
    expect(cache.size).toBe(1);
    expect(answers[2]!.headers.ETag).toBe(answers[0]!.headers.ETag);
    expect(answers[2]!.body.bytes!.equals(answers[0]!.body.bytes!)).toBe(true);
    expect(answers[2]!.headers["Cache-Control"]).toBe("public, max-age=890");
    expect(answers[2]!.headers.Vary).toBe("X-Api-Key");
    // Kept in a store of its own size: the handler's bytes were a view of node's 64 KiB pool slab.
    expect(answers[2]!.body.bytes!.buffer.byteLength).toBe(answers[2]!.body.bytes!.byteLength);
    // A kept body carries its store of compressed copies.
    expect(answers[2]!.body.kept?.effort).toBe("per-request");
    // The key holds the quarter hour: the next one is another entry.
    const later = { ...exchange("lat=52.5", endpoint("forecast")), now: new Date("2026-11-23T20:15:00Z") };
    await run(later);
    expect(calls()).toBe(3);
  });
  it("keeps an instant answer given with its instant's pieces unwritten, and writes them at each hit's instant", async () => {
    const cache = new ResponseCache(1 << 20);
    let calls = 0;
    const run = compose([parse(registry), freshness, keep(cache), validator(apiTag)], (x) => {
      calls++;
      // A writer's short run: a view of its whole buffer.
      const run = Buffer.from('{"at":'.padEnd(4096));
      return wireAnswer({ contentParts: [run.subarray(0, 6), new InstantPart((now) => String(now.getTime())), "}"] }, x);
    });
    let lastParts: unknown[] = [];
    const at = async (time: string) => {
      const a = await run({ ...exchange("lat=4", endpoint("instant")), now: new Date(time) });
      lastParts = [...a.body.parts!];
      return { etag: a.headers.ETag, body: identityBytes(a.body).toString("utf8") };
    };
    await at("2026-11-23T20:00:10Z");
    const kept = await at("2026-11-23T20:00:11Z");
    const hit = await at("2026-11-23T20:00:59Z");
    expect([calls, cache.size]).toEqual([2, 1]);
    expect(hit).toEqual({ etag: kept.etag, body: `{"status":"OK","code":200,"content":{"at":${Date.parse("2026-11-23T20:00:59Z")}}}` });
    // Kept as one fragment per run between the instant pieces, each in a store of its own size
    // (not pinning the writer's 4 KiB); the instant piece written at the hit's instant.
    expect(lastParts.map((p) => (p instanceof Fragment ? p.bytes.toString() : p))).toEqual(['{"status":"OK","code":200,"content":{"at":', String(Date.parse("2026-11-23T20:00:59Z")), "}}"]);
    for (const p of lastParts) if (p instanceof Fragment) expect(p.bytes.buffer.byteLength).toBe(p.bytes.byteLength);
    // The next minute: another key, computed again.
    await at("2026-11-23T20:01:00Z");
    expect(calls).toBe(3);
  });
  it("never keeps an instant answer given whole, an error, or anything when the cache is off", async () => {
    const cache = new ResponseCache(1 << 20);
    const { run, calls } = stack(cache);
    for (let i = 0; i < 3; i++) await run(exchange("lat=1", endpoint("instant")));
    expect([calls(), cache.size]).toEqual([3, 0]);
    const errorStack = compose([parse(registry), freshness, keep(cache), validator(apiTag)], () => Promise.resolve(answerOf(404, Buffer.from("{}"))));
    for (let i = 0; i < 3; i++) {
      const a = await errorStack(exchange("lat=2", endpoint("release")));
      expect(a.headers.ETag).toBeUndefined();
      expect(a.headers["Cache-Control"]).toBeUndefined();
      expect(a.headers.Vary).toBeUndefined();
    }
    expect(cache.size).toBe(0);
    const off = stack(new ResponseCache(0));
    for (let i = 0; i < 3; i++) await off.run(exchange("lat=3", endpoint("release")));
    expect(off.calls()).toBe(3);
  });
  it("never keeps the answers of an endpoint declared kept: false, which still get their ETag and Cache-Control", async () => {
    const cache = new ResponseCache(1 << 20);
    const { run, calls } = stack(cache);
    const e = { ...endpoint("release"), kept: false as const };
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await run(exchange("lat=5", e)));
    expect([calls(), cache.size]).toEqual([3, 0]);
    expect(answers[2]!.headers["Cache-Control"]).toBe("public, max-age=86400");
    expect(answers[2]!.headers.ETag).toBe(answers[0]!.headers.ETag);
  });
  it("sets the endpoint's instant headers on every 200, a kept one included, at its own instant", async () => {
    const cache = new ResponseCache(1 << 20);
    const { run, calls } = stack(cache);
    const e: Endpoint = { ...endpoint("forecast"), instantHeaders: (headers, now) => (headers["X-Instant"] = now.toISOString()) };
    const at = (iso: string): Exchange => ({ ...exchange("lat=6", e), now: new Date(iso) });
    await run(at("2026-11-23T20:00:10Z"));
    await run(at("2026-11-23T20:00:20Z"));
    const kept = await run(at("2026-11-23T20:09:00Z"));
    expect(calls()).toBe(2);
    expect(kept.headers["X-Instant"]).toBe("2026-11-23T20:09:00.000Z");
    // The kept entry itself is untouched: the next hit gets its own instant too.
    expect((await run(at("2026-11-23T20:14:59Z"))).headers["X-Instant"]).toBe("2026-11-23T20:14:59.000Z");
  });
  it("compresses observations harder once kept", async () => {
    const { run } = stack(new ResponseCache(1 << 20));
    await run(exchange("lat=4", endpoint("observations")));
    const kept = await run(exchange("lat=4", endpoint("observations")));
    expect(kept.body.kept?.effort).toBe("kept");
  });
});
