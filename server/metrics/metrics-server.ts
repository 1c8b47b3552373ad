/**
 * The metrics listener (GEODATA_METRICS_PORT, off by default): GET /metrics answers the
 * Prometheus text format; nothing else is served. A separate port, so that the metrics can stay
 * on an internal interface and need no API key. Under node:cluster the primary runs it with
 * `clusterMetricsText` (the workers' metrics summed by prom-client's AggregatorRegistry).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { AggregatorRegistry, type PrometheusContentType } from "prom-client";
import type { Logger } from "../../datasets/common/log.ts";
import { metricsText } from "./metrics.ts";

export type MetricsSource = () => Promise<{ contentType: string; body: string }>;

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

let aggregator: AggregatorRegistry<PrometheusContentType> | undefined;

/** For the cluster primary: every worker's metrics, summed. */
export const clusterMetricsText: MetricsSource = async () => {
  aggregator ??= new AggregatorRegistry<PrometheusContentType>();
  return { contentType: aggregator.contentType, body: await aggregator.clusterMetrics() };
};

/**
 * For a cluster worker: answer the primary's requests for this process's metrics (prom-client
 * registers that IPC listener when an AggregatorRegistry is created, in workers too).
 */
export function answerClusterMetrics(): void {
  aggregator ??= new AggregatorRegistry<PrometheusContentType>();
}

export async function startMetricsServer(port: number, host: string, logger: Logger, source: MetricsSource = metricsText): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("Only GET /metrics is served here.\n");
      return;
    }
    source().then(
      ({ contentType, body }) => {
        res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store", "Content-Length": String(Buffer.byteLength(body)) });
        res.end(req.method === "HEAD" ? undefined : body);
      },
      (err: unknown) => {
        logger.error("metrics collection failed", { err });
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
        res.end("Metrics collection failed.\n");
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  logger.info("metrics listening", { port: actual, path: "/metrics" });
  return {
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
