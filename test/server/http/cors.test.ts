/**
 * CORS through a real socket: browser-shaped preflights (OPTIONS with Origin and
 * Access-Control-Request-Method/-Headers, no key) and the headers of actual answers, with the
 * default `*` and with a list of origins.
 */
import { promises as fs } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDefaultData } from "../../helpers/default-data.ts";
import { startTestServer, TEST_KEY, type TestServer } from "../../helpers/server.ts";

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request on its own socket, with exactly the headers given (as a browser would send them). */
function request(baseUrl: string, method: string, target: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(baseUrl + target, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end();
  });
}

const TARGET = "/elevation/point/2/json?lat=52.52&lon=13.405";
const PREFLIGHT = {
  Origin: "https://maps.example.org",
  "Access-Control-Request-Method": "GET",
  "Access-Control-Request-Headers": "x-api-key",
};

let emptyDir: string;
beforeAll(async () => {
  emptyDir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-cors-"));
});
afterAll(async () => {
  await fs.rm(emptyDir, { recursive: true, force: true });
});

describe("CORS with the default (any origin)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dataDir: emptyDir });
  });
  afterAll(async () => {
    await server.close();
  });

  it("answers a preflight 204 without a key, allowing GET/HEAD, X-Api-Key, with a max age", async () => {
    const res = await request(server.baseUrl, "OPTIONS", TARGET, PREFLIGHT);
    expect(res.status).toBe(204);
    expect(res.body).toBe("");
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.headers["access-control-allow-methods"]).toBe("GET, HEAD");
    expect(res.headers["access-control-allow-headers"]?.toLowerCase().split(", ")).toContain("x-api-key");
    expect(Number(res.headers["access-control-max-age"])).toBeGreaterThan(0);
    expect(res.headers.vary).toBeUndefined();
  });

  it("a plain OPTIONS (no Origin) is still a 405", async () => {
    const res = await request(server.baseUrl, "OPTIONS", TARGET, { "X-Api-Key": "test-key-0123456789abcdef" });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, HEAD");
  });

  it("actual answers, errors included, carry Allow-Origin and expose our headers", async () => {
    const ok = await request(server.baseUrl, "GET", "/health", { Origin: PREFLIGHT.Origin });
    expect(ok.status).toBe(200);
    expect(ok.headers["access-control-allow-origin"]).toBe("*");
    // Every header: the wildcard of a request without credentials (cors.browser.test.ts reads them in Chromium).
    expect(ok.headers["access-control-expose-headers"]).toBe("*");
    expect(ok.headers["access-control-allow-credentials"]).toBeUndefined();
    // A page must be able to read a 401 (wrong key) and a 503 to show them.
    const denied = await request(server.baseUrl, "GET", TARGET, { Origin: PREFLIGHT.Origin, "X-Api-Key": "not-a-valid-key-0000" });
    expect(denied.status).toBe(401);
    expect(denied.headers["access-control-allow-origin"]).toBe("*");
    expect(denied.headers["access-control-expose-headers"]).toBe("*");
    const missing = await request(server.baseUrl, "GET", TARGET, { Origin: PREFLIGHT.Origin, "X-Api-Key": "test-key-0123456789abcdef" });
    expect(missing.status).toBe(503);
    expect(missing.headers["access-control-allow-origin"]).toBe("*");
  });
});

describe("CORS with a list of origins", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dataDir: emptyDir, env: { GEODATA_CORS_ORIGINS: "https://maps.example.org, http://localhost:3000" } });
  });
  afterAll(async () => {
    await server.close();
  });

  it("echoes a listed origin with Vary: Origin", async () => {
    const pre = await request(server.baseUrl, "OPTIONS", TARGET, { ...PREFLIGHT, Origin: "http://localhost:3000" });
    expect(pre.status).toBe(204);
    expect(pre.headers["access-control-allow-origin"]).toBe("http://localhost:3000");
    expect(pre.headers.vary).toBe("Origin");
    const get = await request(server.baseUrl, "GET", "/health", { Origin: "https://maps.example.org" });
    expect(get.headers["access-control-allow-origin"]).toBe("https://maps.example.org");
    expect(get.headers["access-control-expose-headers"]).toBe("*");
    expect(get.headers.vary).toBe("Accept-Encoding, Origin");
  });

  it("adds Origin to the Vary of a cacheable answer, after X-Api-Key", async () => {
    const dataDir = await ensureDefaultData(["elevation"]);
    const withData = await startTestServer({ dataDir, env: { GEODATA_CORS_ORIGINS: "https://maps.example.org" } });
    try {
      const get = await request(withData.baseUrl, "GET", TARGET, { Origin: "https://maps.example.org", "X-Api-Key": TEST_KEY });
      expect(get.status).toBe(200);
      expect(get.headers.vary).toBe("Accept-Encoding, X-Api-Key, Origin");
    } finally {
      await withData.close();
    }
  });

  it("gives an unlisted origin no Allow-Origin (the browser then refuses)", async () => {
    const pre = await request(server.baseUrl, "OPTIONS", TARGET, { ...PREFLIGHT, Origin: "https://evil.example.com" });
    expect(pre.status).toBe(204);
    expect(pre.headers["access-control-allow-origin"]).toBeUndefined();
    expect(pre.headers["access-control-allow-methods"]).toBeUndefined();
    const get = await request(server.baseUrl, "GET", "/health", { Origin: "https://evil.example.com" });
    expect(get.status).toBe(200);
    expect(get.headers["access-control-allow-origin"]).toBeUndefined();
    expect(get.headers.vary).toBe("Accept-Encoding, Origin");
  });
});
