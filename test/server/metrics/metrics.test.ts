/**
 * The metrics listener through real sockets: requests by route and status, latency histograms,
 * 304s, dataset gauges and event-loop delay in the Prometheus text format, parsed back.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDefaultData } from "../../helpers/default-data.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { until } from "../../helpers/until.ts";

/** The value of one sample line (`name{labels} value`), or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(name + "{") && line.split(" ")[0] !== name) continue;
    const m = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe("metrics", () => {
  let server: TestServer;
  let metricsUrl: string;
  beforeAll(async () => {
    server = await startTestServer({ dataDir: await ensureDefaultData(["elevation", "places"]), env: { GEODATA_METRICS_PORT: "0" } });
    metricsUrl = `http://127.0.0.1:${server.service.metricsPort}/metrics`;
  }, 600_000);
  afterAll(async () => {
    await server?.close();
  });

  it("counts requests by route and status, times them, counts 304s", async () => {
    const before = await (await fetch(metricsUrl)).text();
    const okBefore = sample(before, "geodata_http_requests_total", { route: "/elevation/point/2/json", status: "200" }) ?? 0;
    const first = await server.get("/elevation/point/2/json?lat=0.5&lon=10.5");
    await first.text();
    const again = await server.get("/elevation/point/2/json?lat=0.5&lon=10.5", { headers: { "If-None-Match": first.headers.get("etag")! } });
    expect(again.status).toBe(304);
    const bad = await server.get("/elevation/point/2/json?lat=100&lon=0");
    await bad.text();

    const res = await fetch(metricsUrl);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(sample(text, "geodata_http_requests_total", { route: "/elevation/point/2/json", status: "200" })).toBe(okBefore + 1);
    expect(sample(text, "geodata_http_requests_total", { route: "/elevation/point/2/json", status: "304" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "geodata_http_requests_total", { route: "/elevation/point/2/json", status: "400" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "geodata_http_not_modified_total", { route: "/elevation/point/2/json" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "geodata_http_request_duration_seconds_count", { route: "/elevation/point/2/json" })).toBeGreaterThanOrEqual(3);
    expect(sample(text, "geodata_http_request_duration_seconds_bucket", { route: "/elevation/point/2/json", le: "+Inf" })).toBeGreaterThanOrEqual(3);
  });

  it("reports datasets (ready, build time, age) and event-loop delay", async () => {
    const text = await (await fetch(metricsUrl)).text();
    expect(sample(text, "geodata_dataset_ready", { dataset: "elevation", status: "ready" })).toBe(1);
    const built = sample(text, "geodata_dataset_built_timestamp_seconds", { dataset: "elevation" })!;
    const health = (await (await server.get("/health")).json()) as { content: { datasets: Array<{ name: string; builtAt?: string }> } };
    const builtAt = health.content.datasets.find((d) => d.name === "elevation")!.builtAt!;
    expect(built).toBeCloseTo(Date.parse(builtAt) / 1000, 3);
    expect(sample(text, "geodata_dataset_age_seconds", { dataset: "elevation" })).toBeGreaterThan(0);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \S+$/m);
  });

  it("reports the response cache: a repeated query is a hit, its bytes and entries", async () => {
    const before = await (await fetch(metricsUrl)).text();
    const hits = sample(before, "geodata_response_cache_lookups_total", { result: "hit" }) ?? 0;
    const misses = sample(before, "geodata_response_cache_lookups_total", { result: "miss" }) ?? 0;
    // A search no other test of this file asks for (elevation answers are never kept): the first
    // two are misses (an answer is kept on its second request: server/http/response-cache.ts), the third a hit.
    for (let k = 0; k < 3; k++) await (await server.get("/geocode/search/2/json?q=Springfield")).arrayBuffer();
    const text = await (await fetch(metricsUrl)).text();
    expect(sample(text, "geodata_response_cache_lookups_total", { result: "miss" })).toBe(misses + 2);
    expect(sample(text, "geodata_response_cache_lookups_total", { result: "hit" })).toBe(hits + 1);
    expect(sample(text, "geodata_response_cache_entries", {})).toBeGreaterThanOrEqual(1);
    expect(sample(text, "geodata_response_cache_bytes", {})).toBeGreaterThan(0);
  });

  it("reports exactly its open connections", async () => {
    // A server of its own, which no other test talks to: its count is the connections held here.
    const own = await startTestServer({ dataDir: await ensureDefaultData(["elevation", "places"]), env: { GEODATA_METRICS_PORT: "0" } });
    try {
      const url = `http://127.0.0.1:${own.service.metricsPort}/metrics`;
      const gauge = async (name: string): Promise<number | undefined> => sample(await (await fetch(url)).text(), name, {});
      expect(await gauge("geodata_open_connections")).toBe(0);
      const port = Number(new URL(own.baseUrl).port);
      const held = [net.connect(port, "127.0.0.1"), net.connect(port, "127.0.0.1")];
      await Promise.all(held.map((s) => new Promise((resolve) => s.once("connect", resolve))));
      // Connected on this side; the server counts each once its accept has run.
      const counted = await until("the server to count the held connections", async () => {
        const n = await gauge("geodata_open_connections");
        return n !== undefined && n >= 2 ? n : undefined;
      }, 5_000);
      expect(counted).toBe(2);
      for (const s of held) s.destroy();
      await until("the server to count them closed", async () => (await gauge("geodata_open_connections")) === 0, 5_000);
    } finally {
      await own.close();
    }
  });

  it("serves only /metrics", async () => {
    expect((await fetch(metricsUrl.replace("/metrics", "/health"))).status).toBe(404);
  });
});
