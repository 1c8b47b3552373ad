/**
 * Health for balancers: /health/live answers while the process does; /health/ready only when every
 * dataset serves and the server is not draining (503 with the error body otherwise); during the
 * drain that SIGTERM starts, ordinary requests are still answered and every answer closes its
 * connection. Also the access log's client address behind a trusted proxy.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDefaultData } from "../../helpers/default-data.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";

const errorBodyOf = async (res: Response): Promise<unknown> => res.json();

describe("with every dataset ready", () => {
  let server: TestServer;
  beforeAll(async () => {
    const dataDir = await ensureDefaultData(["elevation", "admin", "places", "forecast", "stations"]);
    server = await startTestServer({ dataDir, env: { GEODATA_TRUSTED_PROXIES: "127.0.0.1" } });
  }, 600_000);
  afterAll(async () => {
    await server?.close();
  });

  it("is live and ready, without a key", async () => {
    const live = await server.get("/health/live", { key: null });
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "OK", code: 200, content: { live: true } });
    const ready = await server.get("/health/ready", { key: null });
    expect(ready.status).toBe(200);
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect(await ready.json()).toEqual({ status: "OK", code: 200, content: { ready: true } });
  });

  it("logs the client X-Forwarded-For names when the peer is a trusted proxy", async () => {
    const res = await server.get("/health/live", { key: null, headers: { "X-Forwarded-For": "10.0.0.1, 198.51.100.23" } });
    await res.arrayBuffer();
    const line = server.logLines.filter((l) => l.includes('"path":"/health/live"')).at(-1)!;
    expect(JSON.parse(line).remote).toBe("198.51.100.23");
  });

  it("drains: ready turns 503 at once, ordinary requests still get 200, each answer closes its connection", async () => {
    server.service.drain();
    const ready = await server.get("/health/ready", { key: null });
    expect(ready.status).toBe(503);
    expect(ready.headers.get("connection")).toBe("close");
    expect(await errorBodyOf(ready)).toEqual({ status: "error", code: 503, message: "Not ready: the server is draining before it stops." });
    const normal = await server.get("/elevation/point/2/json?lat=46.5&lon=8.0");
    expect(normal.status).toBe(200);
    expect(normal.headers.get("connection")).toBe("close");
    await normal.arrayBuffer();
    expect((await server.get("/health/live", { key: null })).status).toBe(200);
  });
});

describe("with datasets missing", () => {
  let server: TestServer;
  let emptyDir: string;
  beforeAll(async () => {
    emptyDir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-health-"));
    server = await startTestServer({ dataDir: emptyDir });
  });
  afterAll(async () => {
    await server?.close();
    await fs.rm(emptyDir, { recursive: true, force: true });
  });

  it("is live but not ready, naming the datasets, and the access log shows the socket's peer (no trusted proxy)", async () => {
    expect((await server.get("/health/live", { key: null })).status).toBe(200);
    const ready = await server.get("/health/ready", { key: null, headers: { "X-Forwarded-For": "198.51.100.23" } });
    expect(ready.status).toBe(503);
    expect(await errorBodyOf(ready)).toEqual({
      status: "error",
      code: 503,
      message: "Not ready: dataset 'places', 'admin', 'elevation', 'stations', 'forecast' not loaded; see GET /health.",
    });
    const line = server.logLines.filter((l) => l.includes('"path":"/health/ready"')).at(-1)!;
    expect(JSON.parse(line)).toMatchObject({ route: "/health/ready", status: 503, remote: "127.0.0.1" });
  });
});
