/**
 * Prometheus metrics (prom-client, text exposition format): requests by route and status,
 * latency histograms, 304s (cache hits), every dataset's build and age, and the process's
 * default metrics, event-loop delay included (nodejs_eventloop_lag_*_seconds, from
 * perf_hooks.monitorEventLoopDelay).
 *
 * The metrics live in prom-client's global registry: under node:cluster, prom-client's
 * AggregatorRegistry in the primary (clusterMetricsText) asks every worker for exactly that
 * registry over IPC and sums the counters and histograms. Created once per process.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, register } from "prom-client";
import type { DatasetRegistry } from "../datasets/registry.ts";
import type { App, AppRequest, AppResponse } from "../http/app.ts";
import { after } from "../http/exchange.ts";
import type { ResponseCache } from "../http/response-cache.ts";

export interface HttpMetrics {
  requests: Counter<"route" | "method" | "status">;
  duration: Histogram<"route">;
  notModified: Counter<"route">;
}

let http: HttpMetrics | undefined;
let datasets: DatasetRegistry | undefined;
let answers: ResponseCache | undefined;
/** The HTTP server of this process. */
let server: { readonly connections: number } | undefined;

/** The metrics of this process, created (with the default process metrics) on first use. */
export function processMetrics(): HttpMetrics {
  if (http) return http;
  collectDefaultMetrics({ register, eventLoopMonitoringPrecision: 10 });
  http = {
    requests: new Counter({ name: "geodata_http_requests_total", help: "Answered requests by route (unknown for paths we do not serve), method and status.", labelNames: ["route", "method", "status"] as const }),
    duration: new Histogram({
      name: "geodata_http_request_duration_seconds",
      help: "Time from the request head to the encoded answer (before the socket write), by route.",
      labelNames: ["route"] as const,
      // Lookups take microseconds to a few milliseconds; weather answers tens of milliseconds.
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    }),
    notModified: new Counter({ name: "geodata_http_not_modified_total", help: "304 answers (the client's ETag was current: a cache hit), by route.", labelNames: ["route"] as const }),
  };
  const builtAt = (): Array<{ name: string; status: string; at: number }> =>
    (datasets?.list() ?? []).map((d) => ({ name: d.name, status: d.status, at: d.builtAt ? Date.parse(d.builtAt) / 1000 : NaN }));
  new Gauge({
    name: "geodata_dataset_ready",
    help: "1 when the dataset is loaded and serving, 0 when missing or invalid; status label says which.",
    labelNames: ["dataset", "status"] as const,
    // Under cluster workers: ready only when every worker is.
    aggregator: "min",
    collect() {
      this.reset();
      for (const d of builtAt()) this.set({ dataset: d.name, status: d.status }, d.status === "ready" ? 1 : 0);
    },
  });
  new Gauge({
    name: "geodata_dataset_built_timestamp_seconds",
    help: "Build time of the serving release of each dataset (UNIX seconds).",
    labelNames: ["dataset"] as const,
    // Under cluster workers: the oldest release any worker serves.
    aggregator: "min",
    collect() {
      this.reset();
      for (const d of builtAt()) if (Number.isFinite(d.at)) this.set({ dataset: d.name }, d.at);
    },
  });
  new Gauge({
    name: "geodata_dataset_age_seconds",
    help: "Seconds since the serving release of each dataset was built.",
    labelNames: ["dataset"] as const,
    aggregator: "max",
    collect() {
      this.reset();
      const now = Date.now() / 1000;
      for (const d of builtAt()) if (Number.isFinite(d.at)) this.set({ dataset: d.name }, Math.max(0, now - d.at));
    },
  });
  // Summed over cluster workers (prom-client's default aggregator): each worker has its own cache.
  new Gauge({
    name: "geodata_response_cache_lookups_total",
    help: "Lookups of the response cache (server/http/response-cache.ts) since start, by result (hit or miss).",
    labelNames: ["result"] as const,
    collect() {
      this.reset();
      if (!answers) return;
      this.set({ result: "hit" }, answers.hits);
      this.set({ result: "miss" }, answers.misses);
    },
  });
  new Gauge({
    name: "geodata_response_cache_bytes",
    help: "Bytes held by the response cache (bodies and their compressed copies); bounded by GEODATA_RESPONSE_CACHE_MB per worker.",
    collect() {
      this.set(answers?.usedBytes ?? 0);
    },
  });
  // Summed over cluster workers.
  new Gauge({
    name: "geodata_open_connections",
    help: "Open client connections of the HTTP server.",
    collect() {
      this.set(server?.connections ?? 0);
    },
  });
  new Gauge({
    name: "geodata_response_cache_entries",
    help: "Answers held by the response cache.",
    collect() {
      this.set(answers?.size ?? 0);
    },
  });
  return http;
}

/** The datasets whose releases and ages the gauges report (the service's registry). */
export function watchDatasets(registry: DatasetRegistry): void {
  datasets = registry;
}

/** The response cache whose use the gauges report. */
export function watchResponseCache(cache: ResponseCache): void {
  answers = cache;
}

/** The HTTP server whose connections the gauges report. */
export function watchServer(running: { readonly connections: number }): void {
  server = running;
}

/** Wraps the app so that every answer is counted and timed. */
export function instrument(app: App, metrics: HttpMetrics = processMetrics()): App {
  const count = (out: AppResponse, at: { req: AppRequest; started: number }): AppResponse => {
    const { req, started } = at;
    metrics.requests.inc({ route: out.route, method: req.method === "HEAD" ? "HEAD" : req.method === "GET" ? "GET" : "other", status: String(out.status) });
    metrics.duration.observe({ route: out.route }, (performance.now() - started) / 1000);
    if (out.status === 304) metrics.notModified.inc({ route: out.route });
    return out;
  };
  return (req) => {
    const started = performance.now();
    return after(app(req), count, { req, started });
  };
}

/** This process's metrics in the text exposition format. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: register.contentType, body: await register.metrics() };
}
