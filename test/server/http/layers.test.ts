/**
 * Each layer of the app alone (server/http/app.ts lists them): a layer gets an exchange and a
 * `next` that stands for the layers inside it, so its part is seen without the others.
 */
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../datasets/common/log.ts";
import { errors } from "../../../server/api/api-error.ts";
import { authenticate } from "../../../server/http/authenticate.ts";
import { KeyChecker } from "../../../server/http/auth.ts";
import { encodedTag } from "../../../server/http/cache.ts";
import { codedBytes, compression } from "../../../server/http/compression.ts";
import { conditional } from "../../../server/http/conditional.ts";
import { answerOf, compose, type Answer, type AppRequest, type Exchange, type Layer } from "../../../server/http/exchange.ts";
import { failure } from "../../../server/http/failure.ts";
import { finish } from "../../../server/http/finish.ts";
import { limit } from "../../../server/http/limit.ts";
import { RateLimiter } from "../../../server/http/rate-limit.ts";
import { requestChecks } from "../../../server/http/request-checks.ts";
import type { Endpoint } from "../../../server/endpoints/endpoint.ts";

const KEY = "layer-test-key-0123456789";
const exchange = (req: Partial<AppRequest> = {}, more: Partial<Exchange> = {}): Exchange => ({
  req: { method: "GET", url: "/x", headers: { host: "h" }, hasBody: false, ...req },
  now: new Date("2026-11-23T20:00:10Z"),
  route: "unknown",
  path: "/x",
  query: new URLSearchParams(),
  ...more,
});
const json = (text: string): Buffer => Buffer.from(text, "utf8");
/** A `next` answering `a` (a fresh copy each time). */
const answering = (a: () => Answer) => () => Promise.resolve(a());
/** A `next` that must not be reached. */
const unreachable = (): Promise<Answer> => Promise.reject(new Error("next() called"));
// Over the 1,400-byte threshold, and compressible.
const LARGE = json(`{"status":"OK","code":200,"content":{"text":"${"geodata ".repeat(300)}"}}`);

describe("compose", () => {
  it("runs the layers outermost first, each around the ones inside it", async () => {
    const order: string[] = [];
    const layer = (name: string): Layer => async (x, next) => {
      order.push(`${name} in`);
      const a = await next(x);
      order.push(`${name} out`);
      return a;
    };
    await compose([layer("a"), layer("b")], async () => {
      order.push("last");
      return answerOf(200, json("{}"));
    })(exchange());
    expect(order).toEqual(["a in", "b in", "last", "b out", "a out"]);
  });
  it("answers synchronously, without a promise, when every layer and the last step do", () => {
    const seen: Exchange[] = [];
    const layer: Layer = (x, next) => {
      seen.push(x);
      return next(x);
    };
    const x = exchange();
    const a = compose([layer, conditional, compression, layer], () => answerOf(200, json("{}")))(x);
    expect(a).not.toBeInstanceOf(Promise);
    expect((a as Answer).status).toBe(200);
    expect(seen).toEqual([x, x]);
  });
});

describe("conditional", () => {
  const tagged = () => answerOf(200, json("{}"), { ETag: '"abc-gzip"' });
  it("turns a 200 whose ETag the client holds into a 304 without body", async () => {
    const a = await conditional(exchange({ headers: { host: "h", "if-none-match": '"x", "abc-gzip"' } }), answering(tagged));
    expect(a.status).toBe(304);
    expect(a.headers.ETag).toBe('"abc-gzip"');
    expect(a.encoding).toBe("identity");
    expect(a.body.bytes?.byteLength).toBe(0);
  });
  it("passes another tag, an answer without one, and errors", async () => {
    expect((await conditional(exchange({ headers: { host: "h", "if-none-match": '"abc"' } }), answering(tagged))).status).toBe(200);
    expect((await conditional(exchange({ headers: { host: "h", "if-none-match": "*" } }), answering(() => answerOf(200, json("{}"))))).status).toBe(200);
    expect((await conditional(exchange({ headers: { host: "h", "if-none-match": "*" } }), answering(() => answerOf(404, json("{}"), { ETag: '"e"' })))).status).toBe(404);
  });
});

describe("compression", () => {
  const accept = (value: string) => exchange({ headers: { host: "h", "accept-encoding": value } });
  it("leaves bodies up to the threshold alone, and answers the client's preferred coding above it", async () => {
    expect((await compression(accept("br"), answering(() => answerOf(200, json("{}"))))).encoding).toBe("identity");
    const br = await compression(accept("gzip, br"), answering(() => answerOf(200, LARGE, { ETag: '"t"' })));
    expect(br.encoding).toBe("br");
    expect(br.headers.ETag).toBe('"t-br"');
    expect((await compression(accept("identity"), answering(() => answerOf(200, LARGE)))).encoding).toBe("identity");
  });
  it("prefers gzip for a body of parts (spliced, never compressed whole) and makes it only when finished", async () => {
    const parts = ['{"status":"OK","code":200,"content":{"text":"', "geodata ".repeat(300), '"}}'];
    const a = await compression(accept("gzip, deflate, br"), answering(() => ({ status: 200, headers: {}, body: { parts }, encoding: "identity" })));
    expect(a.encoding).toBe("gzip");
    expect(a.body.bytes).toBeUndefined();
    expect(gunzipSync(codedBytes(a)).toString()).toBe(parts.join(""));
  });
  it("names the harder level of a kept body in the ETag, and keeps the copy it makes", async () => {
    const added: number[] = [];
    const kept = { effort: "kept" as const, copies: {}, added: (n: number) => added.push(n) };
    const a = await compression(accept("gzip"), answering(() => ({ status: 200, headers: { ETag: '"t"' }, body: { bytes: LARGE, kept }, encoding: "identity" })));
    expect(a.headers.ETag).toBe(encodedTag('"t"', "gzip", "kept"));
    const first = codedBytes(a);
    expect(gunzipSync(first).equals(LARGE)).toBe(true);
    expect(codedBytes(a)).toBe(first);
    expect(added).toEqual([first.byteLength]);
  });
});

describe("failure", () => {
  const lines: string[] = [];
  const layer = failure(createLogger({ sink: (l) => lines.push(l) }));
  it("answers an ApiError with its status, headers and the spec's error body", async () => {
    const a = await layer(exchange(), () => Promise.reject(errors.methodNotAllowed("PUT")));
    expect(a.status).toBe(405);
    expect(a.headers.Allow).toBe("GET, HEAD");
    expect(JSON.parse(a.body.bytes!.toString())).toMatchObject({ status: "error", code: 405 });
  });
  it("answers anything else with a generic 500 and logs it", async () => {
    const a = await layer(exchange({}, { route: "/r" }), () => Promise.reject(new TypeError("boom")));
    expect(a.status).toBe(500);
    expect(a.body.bytes!.toString()).not.toContain("boom");
    expect(lines.some((l) => l.includes("boom") && l.includes('"route":"/r"'))).toBe(true);
  });
  it("writes a foreign API's own error shape", async () => {
    const foreign = { errorBody: (status: number, message: string) => json(JSON.stringify({ error: true, reason: `${status} ${message}` })) };
    const a = await layer(exchange({}, { foreign }), () => Promise.reject(errors.unauthorized()));
    expect(JSON.parse(a.body.bytes!.toString())).toEqual({ error: true, reason: expect.stringMatching(/^401 /) });
  });
});

describe("requestChecks", () => {
  const checks = requestChecks("*", () => false);
  const statusOf = async (req: Partial<AppRequest>, layer: Layer = checks): Promise<number> => (await failure(createLogger({ sink: () => {} }))(exchange(req), () => layer(exchange(req), answering(() => answerOf(200, json("{}")))))).status;
  it("refuses in the documented order", async () => {
    expect(await statusOf({ httpVersion: "1.1", headers: {} })).toBe(400);
    expect(await statusOf({ headers: { host: "h", expect: "later" } })).toBe(417);
    expect(await statusOf({ url: `/${"a".repeat(9000)}` })).toBe(414);
    // Counted in UTF-8 bytes: 3,000 three-byte characters are 9,001 bytes; 4,000 two-byte ones 8,001.
    expect(await statusOf({ url: `/${"€".repeat(3000)}` })).toBe(414);
    expect(await statusOf({ url: `/${"é".repeat(4000)}` })).not.toBe(414);
    expect(await statusOf({ hasBody: true })).toBe(413);
    expect(await statusOf({ method: "PUT" })).toBe(405);
    expect(await statusOf({}, requestChecks("*", () => true))).toBe(503);
    expect(await statusOf({ url: "//evil/x" })).toBe(400);
    expect(await statusOf({ url: "/ok?q=1" })).toBe(200);
  });
  it("answers a CORS preflight bare, without a key", async () => {
    const x = exchange({ method: "OPTIONS", headers: { host: "h", origin: "https://a.example", "access-control-request-method": "GET" } });
    const a = await checks(x, unreachable);
    expect(a).toMatchObject({ status: 204, bare: true });
    expect(x.route).toBe("preflight");
  });
  it("splits the target for the layers inside", async () => {
    const x = exchange({ url: "/p/q?a=1&b=2" });
    await checks(x, answering(() => answerOf(200, json("{}"))));
    expect([x.path, x.query.get("b")]).toEqual(["/p/q", "2"]);
  });
});

describe("authenticate", () => {
  const auth = authenticate(new KeyChecker([KEY]));
  const ok = answering(() => answerOf(200, json("{}")));
  it("takes the X-Api-Key header, refuses a missing, wrong or repeated one", async () => {
    const x = exchange({ headers: { host: "h", "x-api-key": KEY } });
    expect((await auth(x, ok)).status).toBe(200);
    expect(x.key).toBe(KEY);
    for (const key of [undefined, "wrong-key-0123456789", [KEY, KEY]]) {
      expect(() => auth(exchange({ headers: { host: "h", "x-api-key": key } }), ok)).toThrow(/API key/);
    }
  });
  it("takes a foreign API's apikey query parameter out of the query, and only for a foreign API", async () => {
    const foreign = { errorBody: () => json("{}") };
    const x = exchange({}, { foreign, query: new URLSearchParams(`latitude=1&apikey=${KEY}`) });
    expect((await auth(x, ok)).status).toBe(200);
    expect(x.query.toString()).toBe("latitude=1");
    expect(() => auth(exchange({}, { query: new URLSearchParams(`apikey=${KEY}`) }), ok)).toThrow(/API key/);
  });
});

describe("limit", () => {
  it("counts each keyed request, puts its headers on the exchange, and refuses past the quota", async () => {
    const layer = limit(new RateLimiter({ requests: 1, windowSeconds: 60 }, 1, () => 0));
    const x = exchange({}, { key: KEY });
    expect((await layer(x, answering(() => answerOf(200, json("{}"))))).status).toBe(200);
    expect(x.rate?.RateLimit).toBe('"per-key";r=0;t=60');
    const again = exchange({}, { key: KEY, endpoint: { path: "/e" } as Endpoint });
    expect(() => layer(again, unreachable)).toThrow(expect.objectContaining({ status: 429 }));
    expect(again.rate?.["Retry-After"]).toBe("60");
    expect(again.route).toBe("/e");
  });
  it("is nothing without a limiter", async () => {
    const x = exchange({}, { key: KEY });
    await limit(undefined)(x, answering(() => answerOf(200, json("{}"))));
    expect(x.rate).toBeUndefined();
  });
});

describe("finish", () => {
  it("adds the headers every answer has, CORS, the rate and the coding's, and writes the coded body", () => {
    const x = exchange({ headers: { host: "h", origin: "https://a.example" } }, { route: "/r", rate: { RateLimit: "r" } });
    const res = finish(x, { ...answerOf(200, LARGE, { "X-Own": "1" }), encoding: "gzip" }, "*");
    expect(res.headers).toMatchObject({ "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "X-Own": "1", RateLimit: "r", "Content-Encoding": "gzip", "Access-Control-Allow-Origin": "*" });
    expect(res.headers["Content-Length"]).toBe(String(res.body.byteLength));
    expect(gunzipSync(res.body).equals(LARGE)).toBe(true);
    expect(res.route).toBe("/r");
  });
  it("sends no body for HEAD (with the GET's length) nor for a 304 (without Content-Type and Content-Length)", () => {
    const head = finish(exchange({ method: "HEAD" }), answerOf(200, LARGE), "*");
    expect(head.body.byteLength).toBe(0);
    expect(head.headers["Content-Length"]).toBe(String(LARGE.byteLength));
    const notModified = finish(exchange(), { ...answerOf(304, Buffer.alloc(0), { ETag: '"t"' }) }, "*");
    expect(notModified.headers["Content-Type"]).toBeUndefined();
    expect(notModified.headers["Content-Length"]).toBeUndefined();
    expect(notModified.headers.ETag).toBe('"t"');
  });
  it("puts Accept-Encoding first in Vary, then the answer's own, then CORS's", () => {
    expect(finish(exchange(), answerOf(200, LARGE), "*").headers.Vary).toBe("Accept-Encoding");
    expect(finish(exchange(), answerOf(200, LARGE, { Vary: "X-Api-Key" }), "*").headers.Vary).toBe("Accept-Encoding, X-Api-Key");
    const listed = exchange({ headers: { host: "h", origin: "https://a.example" } });
    expect(finish(listed, answerOf(304, Buffer.alloc(0), { Vary: "X-Api-Key" }), ["https://a.example"]).headers.Vary).toBe("Accept-Encoding, X-Api-Key, Origin");
  });
});
