/**
 * HTTP caching: the per-endpoint policies and validators (unit), and ETag / If-None-Match / 304
 * through a real socket on the embedded-default data.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cacheHeaders, cacheHeadersAfter, ifNoneMatchHits, newestRunTimeOf, tagPrefix, type CacheInput } from "../../../server/http/cache.ts";
import type { DatasetState } from "../../../server/datasets/registry.ts";
import { ensureDefaultData } from "../../helpers/default-data.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";

const places: DatasetState = { name: "places", status: "ready", formatVersion: 3, builtAt: "2026-11-01T10:00:00.000Z" };
const base: CacheInput = {
  kind: "release",
  apiTag: "api",
  route: "/geocode/search/2/json",
  datasets: [places],
  params: { q: "Berlin", limit: 10, offset: 0 },
  encoding: "identity",
  now: new Date("2026-11-23T20:00:10Z"),
};

describe("cacheHeaders", () => {
  it("release: a day, strong ETag that changes with the build, the query and the coding", () => {
    const h = cacheHeaders(base);
    expect(h["Cache-Control"]).toBe("public, max-age=86400");
    expect(h.ETag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(cacheHeaders({ ...base, now: new Date("2026-11-24T20:00:00Z") }).ETag).toBe(h.ETag);
    expect(cacheHeaders({ ...base, datasets: [{ ...places, builtAt: "2026-11-02T10:00:00.000Z" }] }).ETag).not.toBe(h.ETag);
    expect(cacheHeaders({ ...base, params: { q: "Berlin", limit: 5, offset: 0 } }).ETag).not.toBe(h.ETag);
    expect(cacheHeaders({ ...base, apiTag: "api2" }).ETag).not.toBe(h.ETag);
    const gz = cacheHeaders({ ...base, encoding: "gzip" }).ETag;
    expect(gz).toBe(h.ETag.slice(0, -1) + '-gzip"');
  });
  it("the tag is the documented digest: SHA-256 of [apiTag, route, releases, params, bucket], with or without a kept prefix", () => {
    for (const input of [base, { ...base, kind: "instant" as const }, { ...base, params: { q: "Zürich \"x\"", limit: 1, offset: 0 } }]) {
      const bucket = input.kind === "instant" ? Math.floor(input.now.getTime() / 60_000) : null;
      const text = JSON.stringify([input.apiTag, input.route, ["places@3@2026-11-01T10:00:00.000Z@"], input.params, bucket]);
      const digest = createHash("sha256").update(text).digest("base64url").slice(0, 27);
      const tag = cacheHeaders(input).ETag;
      expect(tag.replace(/^W\//, "")).toBe(`"${digest}"`);
      expect(cacheHeadersAfter(tagPrefix(input.apiTag, input.route, input.datasets), input).ETag).toBe(tag);
    }
  });
  it("observations: five minutes", () => {
    expect(cacheHeaders({ ...base, kind: "observations" })["Cache-Control"]).toBe("public, max-age=300");
  });
  it("forecast: until the next run is due (run + 6 h cycle + 5 h delay) or the end of the UTC quarter hour", () => {
    // Run 12:00 is followed by 18:00, due at 23:00; the quarter hour ends at 20:15:00, 890 s after 20:00:10.
    const h = cacheHeaders({ ...base, kind: "forecast", newestRunTime: "2026-11-23T12:00:00Z" });
    expect(h["Cache-Control"]).toBe("public, max-age=890");
    expect(h.ETag).toMatch(/^"/);
    // A run whose successor is due at 20:05 (09:05 + 11 h): 290 s, before the quarter hour ends.
    expect(cacheHeaders({ ...base, kind: "forecast", newestRunTime: "2026-11-23T09:05:00Z" })["Cache-Control"]).toBe("public, max-age=290");
    expect(cacheHeaders({ ...base, kind: "forecast", newestRunTime: "2011-01-10T12:00:00Z" })["Cache-Control"]).toBe("public, max-age=890");
    expect(cacheHeaders({ ...base, kind: "forecast" })["Cache-Control"]).toBe("public, max-age=890");
    // The ETag changes with the quarter hour, not within it.
    expect(cacheHeaders({ ...base, kind: "forecast", now: new Date("2026-11-23T20:14:59Z") }).ETag).toBe(cacheHeaders({ ...base, kind: "forecast" }).ETag);
    expect(cacheHeaders({ ...base, kind: "forecast", now: new Date("2026-11-23T20:15:00Z") }).ETag).not.toBe(cacheHeaders({ ...base, kind: "forecast" }).ETag);
  });
  it("instant: weak ETag that changes with the minute, max-age to the end of the minute", () => {
    const a = cacheHeaders({ ...base, kind: "instant" });
    expect(a.ETag.startsWith('W/"')).toBe(true);
    expect(a["Cache-Control"]).toBe("public, max-age=50");
    expect(cacheHeaders({ ...base, kind: "instant", now: new Date("2026-11-23T20:00:59Z") }).ETag).toBe(a.ETag);
    expect(cacheHeaders({ ...base, kind: "instant", now: new Date("2026-11-23T20:01:00Z") }).ETag).not.toBe(a.ETag);
  });
});

describe("ifNoneMatchHits", () => {
  it("compares weakly, accepts lists and *", () => {
    expect(ifNoneMatchHits(undefined, '"abc"')).toBe(false);
    expect(ifNoneMatchHits('"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('"abc"', 'W/"abc"')).toBe(true);
    expect(ifNoneMatchHits('"x", "abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('"abcd"', '"abc"')).toBe(false);
    expect(ifNoneMatchHits("*", '"abc"')).toBe(true);
  });
});

describe("newestRunTimeOf", () => {
  it("takes the newest first run among the models of the forecast facts", () => {
    const forecast: DatasetState = { name: "forecast", status: "ready", formatVersion: 1, facts: { models: [{ model: "a", runs: ["2011-01-10T12:00:00Z", "2011-01-10T06:00:00Z"] }, { model: "b", runs: ["2011-10-08T00:00:00Z"] }] } };
    expect(newestRunTimeOf(forecast)).toBe("2011-10-08T00:00:00Z");
    expect(newestRunTimeOf(undefined)).toBeUndefined();
  });
});

describe("ETag and 304 over a socket", () => {
  /** The server's clock, fixed: the answers' lifetimes are known in advance. */
  const NOW = new Date("2026-11-23T20:00:10Z");
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dataDir: await ensureDefaultData(["elevation", "admin", "places", "forecast", "stations"]), now: () => NOW });
  }, 600_000);
  afterAll(async () => {
    await server?.close();
  });

  it("elevation: strong ETag, a day; If-None-Match gives a 304 with no body and the same headers", async () => {
    const first = await server.get("/elevation/point/2/json?lat=0.5&lon=10.5");
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers.get("cache-control")).toBe("public, max-age=86400");
    await first.text();

    const again = await server.get("/elevation/point/2/json?lat=0.50&lon=10.50", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(again.headers.get("x-elevation-source")).toBe(first.headers.get("x-elevation-source"));

    const head = await server.get("/elevation/point/2/json?lat=0.5&lon=10.5", { method: "HEAD", headers: { "If-None-Match": `"other", ${etag}` } });
    expect(head.status).toBe(304);

    const other = await server.get("/elevation/point/2/json?lat=0.6&lon=10.5", { headers: { "If-None-Match": etag } });
    expect(other.status).toBe(200);
    expect(other.headers.get("etag")).not.toBe(etag);
    await other.text();
  });

  it("point forecast: strong ETag, until the end of the quarter hour; asked again within it, a 304", async () => {
    const res = await server.get("/weather/point/2/json?lat=40.42&lon=-3.7");
    expect(res.status).toBe(200);
    await res.text();
    expect(res.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]+(-br|-gzip)?"$/);
    // The embedded runs are years old, their successors long due: the quarter hour ends first,
    // at 20:15:00, 890 s after NOW.
    expect(res.headers.get("cache-control")).toBe("public, max-age=890");
    const again = await server.get("/weather/point/2/json?lat=40.420&lon=-3.70", { headers: { "If-None-Match": res.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it("station observations: five minutes", async () => {
    const res = await server.get("/weather/METAR/2/json?id=KJFK");
    expect(res.status).toBe(200);
    await res.text();
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
  });

  it("a compressed answer has its own ETag", async () => {
    const plain = await server.get("/geocode/search/2/json?q=Springfield&limit=20", { headers: { "Accept-Encoding": "identity" } });
    const gz = await server.get("/geocode/search/2/json?q=Springfield&limit=20", { headers: { "Accept-Encoding": "gzip" } });
    await plain.text();
    await gz.text();
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("etag")).toBe(plain.headers.get("etag")!.slice(0, -1) + '-gzip"');
    const notModified = await server.get("/geocode/search/2/json?q=Springfield&limit=20", { headers: { "Accept-Encoding": "gzip", "If-None-Match": gz.headers.get("etag")! } });
    expect(notModified.status).toBe(304);
  });

  it("reverse geocoding carries the instant: weak ETag, until the end of the minute", async () => {
    const res = await server.get("/geocode/reverse/2/json?lat=52.52&lon=13.405");
    expect(res.status).toBe(200);
    await res.text();
    expect(res.headers.get("etag")).toMatch(/^W\/"/);
    // NOW is 20:00:10: 50 s to the end of the minute.
    expect(res.headers.get("cache-control")).toBe("public, max-age=50");
  });

  it("errors stay no-store without an ETag", async () => {
    const res = await server.get("/elevation/point/2/json?lat=91&lon=0");
    expect(res.status).toBe(400);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("etag")).toBeNull();
  });
});
