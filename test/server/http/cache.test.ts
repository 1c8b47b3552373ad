/**
 * HTTP caching: the per-endpoint policies and validators (unit), and ETag / If-None-Match / 304
 * through a real socket on the embedded-default data.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CachePolicyKind } from "../../../server/api/cache-policy.ts";
import { cacheBucket, cacheControl, encodedTag, forecastRunsDue, identityTag, ifNoneMatchHits, newestRunTimeOf, tagDigest, tagPrefix } from "../../../server/http/cache.ts";
import type { DatasetState } from "../../../server/datasets/registry.ts";
import { ensureDefaultData } from "../../helpers/default-data.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";

const places: DatasetState = { name: "places", status: "ready", formatVersion: 3, builtAt: "2026-11-01T10:00:00.000Z" };
const NOW = new Date("2026-11-23T20:00:10Z");
const params = { q: "Berlin", limit: 10, offset: 0 };
/** The ETag of a search answer as the layers make it (caching.ts validator, compression.ts). */
const tagOf = (o: { kind?: CachePolicyKind; apiTag?: string; datasets?: DatasetState[]; params?: unknown; now?: Date } = {}): string => {
  const kind = o.kind ?? "release";
  return identityTag(tagDigest(tagPrefix(o.apiTag ?? "api", "/geocode/search/2/json", o.datasets ?? [places]), cacheBucket(kind, o.now ?? NOW)), kind, JSON.stringify(o.params ?? params));
};

/** FNV-1a, 32 bits, over UTF-16 code units, written from its definition (offset basis 0x811c9dc5, prime 0x01000193). */
function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h = (h ^ text.charCodeAt(i)) >>> 0;
    h = Number((BigInt(h) * 0x01000193n) % 2n ** 32n);
  }
  return h;
}

describe("validators and lifetimes", () => {
  it("release: a day, strong ETag that changes with the build, the query and the coding", () => {
    expect(cacheControl("release", NOW)).toBe("public, max-age=86400");
    const tag = tagOf();
    expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(tagOf({ now: new Date("2026-11-24T20:00:00Z") })).toBe(tag);
    expect(tagOf({ datasets: [{ ...places, builtAt: "2026-11-02T10:00:00.000Z" }] })).not.toBe(tag);
    expect(tagOf({ params: { q: "Berlin", limit: 5, offset: 0 } })).not.toBe(tag);
    expect(tagOf({ apiTag: "api2" })).not.toBe(tag);
    expect(encodedTag(tag, "gzip")).toBe(tag.slice(0, -1) + '-gzip"');
    expect(encodedTag(tag, "br", "kept")).toBe(tag.slice(0, -1) + '-br5"');
  });
  it("the tag is the documented digest and hash: SHA-256 of [apiTag, route, releases, bucket], then FNV-1a of the parameters", () => {
    for (const [kind, p] of [["release", params], ["instant", params], ["release", { q: 'Zürich "x"', limit: 1, offset: 0 }]] as const) {
      const bucket = kind === "instant" ? Math.floor(NOW.getTime() / 60_000) : null;
      const text = JSON.stringify(["api", "/geocode/search/2/json", ["places@3@2026-11-01T10:00:00.000Z@"], bucket]);
      const digest = createHash("sha256").update(text).digest("base64url").slice(0, 22);
      const tag = `${digest}${fnv1a32(JSON.stringify(p)).toString(36).padStart(7, "0")}`;
      expect(tagOf({ kind, params: p })).toBe(kind === "instant" ? `W/"${tag}"` : `"${tag}"`);
    }
    // FNV-1a's published 32-bit test vectors (the empty string and "a", "foobar"): the hash as specified.
    expect([fnv1a32(""), fnv1a32("a"), fnv1a32("foobar")]).toEqual([0x811c9dc5, 0xe40c292c, 0xbf9cf968]);
  });
  it("observations: five minutes", () => {
    expect(cacheControl("observations", NOW)).toBe("public, max-age=300");
  });
  it("forecast: until the next run of a model is due or the end of the UTC quarter hour", () => {
    // The quarter hour ends at 20:15:00, 890 s after 20:00:10.
    expect(cacheControl("forecast", NOW)).toBe("public, max-age=890");
    expect(cacheControl("forecast", NOW, [Date.parse("2026-11-23T23:00:00Z")])).toBe("public, max-age=890");
    // A run due at 20:05 (and one overdue, which changes only on reload): 290 s.
    expect(cacheControl("forecast", NOW, [Date.parse("2011-01-10T17:00:00Z"), Date.parse("2026-11-23T20:05:00Z")])).toBe("public, max-age=290");
    // The ETag changes with the quarter hour, not within it.
    expect(tagOf({ kind: "forecast", now: new Date("2026-11-23T20:14:59Z") })).toBe(tagOf({ kind: "forecast" }));
    expect(tagOf({ kind: "forecast", now: new Date("2026-11-23T20:15:00Z") })).not.toBe(tagOf({ kind: "forecast" }));
  });
  it("instant: weak ETag that changes with the minute, max-age to the end of the minute", () => {
    const a = tagOf({ kind: "instant" });
    expect(a).toMatch(/^W\/"/);
    expect(cacheControl("instant", NOW)).toBe("public, max-age=50");
    expect(tagOf({ kind: "instant", now: new Date("2026-11-23T20:00:59Z") })).toBe(a);
    expect(tagOf({ kind: "instant", now: new Date("2026-11-23T20:01:00Z") })).not.toBe(a);
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

describe("forecast facts", () => {
  const forecast = (models: unknown[]): DatasetState => ({ name: "forecast", status: "ready", formatVersion: 3, facts: { models } });
  it("takes the newest first run among the models", () => {
    expect(newestRunTimeOf(forecast([{ model: "a", runs: ["2011-01-10T12:00:00Z", "2011-01-10T06:00:00Z"] }, { model: "b", runs: ["2011-10-08T00:00:00Z"] }]))).toBe("2011-10-08T00:00:00Z");
    expect(newestRunTimeOf(undefined)).toBeUndefined();
  });
  it("dates each model's next run from its own run hours (CMC GDPS 00 and 12 UTC, GFS every 6 h) plus the 5 h delay", () => {
    const due = forecastRunsDue(
      forecast([
        { model: "cmc-gdps", runs: ["2026-11-23T12:00:00Z"], runHours: [0, 12] },
        { model: "gfs025", runs: ["2026-11-23T12:00:00Z", "2026-11-23T06:00:00Z"], runHours: [0, 6, 12, 18] },
        { model: "gfs050", runs: ["2026-11-23T18:00:00Z"], runHours: [0, 6, 12, 18] },
        // Written before run hours were recorded: left out.
        { model: "gfs-2p5-sample", runs: ["2011-01-10T12:00:00Z"], runHours: null },
      ]),
    );
    expect(due.map((t) => new Date(t).toISOString())).toEqual(["2026-11-24T05:00:00.000Z", "2026-11-23T23:00:00.000Z", "2026-11-24T05:00:00.000Z"]);
    expect(forecastRunsDue(undefined)).toEqual([]);
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
    // A cache keeps it per key (RFC 9111 §4.1): a request with another key, or none, is not served this copy.
    expect(first.headers.get("vary")).toBe("Accept-Encoding, X-Api-Key");
    await first.text();

    const again = await server.get("/elevation/point/2/json?lat=0.50&lon=10.50", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(again.headers.get("vary")).toBe("Accept-Encoding, X-Api-Key");
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
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
  });
});
