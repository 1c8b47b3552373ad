/**
 * Per-key rate limits: the token bucket on a controlled clock (unit), and 429 with the spec's
 * error body, Retry-After and the draft's RateLimit fields through a real socket.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RateLimiter } from "../../../server/http/rate-limit.ts";
import { OTHER_KEY, startTestServer, type TestServer } from "../../helpers/server.ts";

describe("RateLimiter (token bucket)", () => {
  it("allows a burst of the whole quota, then refills at quota/window", () => {
    let now = 0;
    const limiter = new RateLimiter({ requests: 3, windowSeconds: 60 }, 1, () => now);
    const a = limiter.take("k");
    expect(a.allowed).toBe(true);
    expect(a.headers["RateLimit-Policy"]).toBe('"per-key";q=3;w=60');
    // 2 left; 1 token takes 20 s to come back, so the bucket is full again in 20 s.
    expect(a.headers.RateLimit).toBe('"per-key";r=2;t=20');
    expect(limiter.take("k").allowed).toBe(true);
    expect(limiter.take("k").headers.RateLimit).toBe('"per-key";r=0;t=60');
    const refused = limiter.take("k");
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(20);
    expect(refused.headers["Retry-After"]).toBe("20");
    // Other keys have their own bucket.
    expect(limiter.take("other").allowed).toBe(true);
    now = 10_000; // half a token back: still refused, 10 s to go
    expect(limiter.take("k").retryAfterSeconds).toBe(10);
    now = 20_000;
    expect(limiter.take("k").allowed).toBe(true);
  });
  it("divides the quota between processes that share it", () => {
    const limiter = new RateLimiter({ requests: 100, windowSeconds: 60 }, 4);
    expect(limiter.capacity).toBe(25);
    expect(limiter.take("k").headers["RateLimit-Policy"]).toBe('"per-key";q=25;w=60');
    // Rounded down, so that 3 workers never let 100 through: 33 each.
    expect(new RateLimiter({ requests: 100, windowSeconds: 60 }, 3).capacity).toBe(33);
    expect(new RateLimiter({ requests: 2, windowSeconds: 60 }, 4).capacity).toBe(1);
  });
});

describe("429 over a socket", () => {
  let server: TestServer;
  let emptyDir: string;
  beforeAll(async () => {
    emptyDir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-rate-"));
    server = await startTestServer({ dataDir: emptyDir, env: { GEODATA_RATE_LIMIT: "2/3600s" } });
  });
  afterAll(async () => {
    await server.close();
    await fs.rm(emptyDir, { recursive: true, force: true });
  });

  it("counts every keyed request, refuses the third with 429, Retry-After and RateLimit fields", async () => {
    const first = await server.get("/geocode/search/2/json?q=Berlin");
    expect(first.status).toBe(503); // no data: still a counted request
    expect(first.headers.get("ratelimit-policy")).toBe('"per-key";q=2;w=3600');
    expect(first.headers.get("ratelimit")).toBe('"per-key";r=1;t=1800');
    await first.text();
    const second = await server.get("/nowhere");
    expect(second.status).toBe(404);
    await second.text();
    const third = await server.get("/geocode/search/2/json?q=Berlin");
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("1800");
    expect(third.headers.get("ratelimit")).toBe('"per-key";r=0;t=3600');
    expect(await third.json()).toEqual({ status: "error", code: 429, message: "Rate limit exceeded for this key: 2 requests per 3600 s; retry after 1800 s." });
    // Another key has its own bucket; public paths and wrong keys are not counted.
    const other = await server.get("/geocode/search/2/json?q=Berlin", { key: OTHER_KEY });
    expect(other.status).toBe(503);
    await other.text();
    const health = await server.get("/health", { key: null });
    expect(health.status).toBe(200);
    expect(health.headers.get("ratelimit")).toBeNull();
    await health.text();
  });
});
