/**
 * Wires the service together: datasets, key checker, app, node:http. Used by server/main.ts and
 * by the tests (port 0), so both run exactly the same code.
 */
import type { Config } from "../datasets/common/config.ts";
import type { Logger } from "../datasets/common/log.ts";
import type { AccessLog } from "./http/access-log.ts";
import type { LoaderTable } from "./datasets/loader.ts";
import { loadDatasets, type DatasetRegistry } from "./datasets/registry.ts";
import type { LoadedDatasets } from "./endpoints/loaded-datasets.ts";
import { LOADERS } from "./loaders.ts";
import { Reloader, type ReloadOutcome } from "./datasets/reload.ts";
import { ReloadableKeys } from "./api-keys.ts";
import { ENDPOINTS } from "./endpoints/routes.ts";
import { createApp, type App } from "./http/app.ts";
import { RateLimiter } from "./http/rate-limit.ts";
import { ResponseCache } from "./http/response-cache.ts";
import { docsAsset } from "./docs-page/docs-page.ts";
import { instrument, watchDatasets, watchResponseCache, watchServer } from "./metrics/metrics.ts";
import { answerClusterMetrics, startMetricsServer, type MetricsServer } from "./metrics/metrics-server.ts";
import { trustedProxies } from "./http/client-address.ts";
import { startServer, type RunningServer } from "./http/node-server.ts";
import { buildOpenApi } from "./openapi/document.ts";

export interface Service {
  running: RunningServer;
  /** The app the server answers with, for in-process callers (benches): no socket, no metrics. */
  app: App;
  registry: DatasetRegistry<LoadedDatasets>;
  /** Whole answers kept for repeated queries (GEODATA_RESPONSE_CACHE_MB). */
  responseCache: ResponseCache;
  /** The port /metrics is served on, when this process serves it. */
  metricsPort?: number;
  /** SIGHUP: re-reads the API keys file and every dataset (new releases swapped in, bad ones refused). */
  reload(): Promise<ReloadOutcome[]>;
  /** SIGTERM's first step: /health/ready answers 503 and every answer closes its connection; requests are still served. */
  drain(): void;
  /** Stops the HTTP server (gracefully) and releases datasets. */
  stop(): Promise<void>;
}

export interface ServiceOptions {
  config: Config;
  logger: Logger;
  /** Where request lines go (stdout in production). */
  accessLogger: AccessLog;
  /** The dataset loaders (default server/loaders.ts); tests give stand-ins. */
  loaders?: LoaderTable<LoadedDatasets>;
  /** How many processes share GEODATA_RATE_LIMIT (cluster workers): each holds 1/shares of it. Default 1. */
  rateLimitShares?: number;
  /**
   * With GEODATA_METRICS_PORT: "serve" (default) counts requests and serves /metrics on that port;
   * "collect" only counts (a cluster worker, whose primary serves the workers' sum).
   */
  metrics?: "serve" | "collect";
  /** The keys in force when the configuration names none (server/main.ts: a key generated for this run). */
  generatedKey?: string;
  /** The instant of a request (default the system clock); tests fix it. */
  now?: () => Date;
}

export async function startService(options: ServiceOptions): Promise<Service> {
  const { config, logger } = options;
  const loaders = options.loaders ?? LOADERS;
  const registry = await loadDatasets(config, logger, loaders);
  let openapi: unknown;
  const state = { shuttingDown: () => false, draining: false };
  const fromEnv = config.apiKeysFromEnv ?? config.apiKeys;
  const fromFile = config.apiKeys.slice(fromEnv.length);
  // A key generated for this run (none configured) stays across reloads of an empty keys file.
  const keys = new ReloadableKeys(fromEnv.length === 0 && options.generatedKey !== undefined ? [options.generatedKey] : fromEnv, fromFile);
  const reloader = new Reloader({ config, logger, registry, loaders });
  const responseCache = new ResponseCache(config.responseCacheMb * 2 ** 20);
  const rateLimiter = config.rateLimit ? new RateLimiter(config.rateLimit, options.rateLimitShares ?? 1) : undefined;
  const app = createApp({
    endpoints: ENDPOINTS,
    registry,
    keys,
    openapi: () => (openapi ??= buildOpenApi(ENDPOINTS)),
    logger,
    isShuttingDown: () => state.shuttingDown(),
    isDraining: () => state.draining,
    corsOrigins: config.corsOrigins,
    responseCache,
    docs: (path) => docsAsset(path, registry.get("admin")),
    ...(rateLimiter ? { rateLimiter } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const metricsOn = config.metricsPort !== undefined;
  if (metricsOn) {
    watchDatasets(registry);
    watchResponseCache(responseCache);
  }
  if (metricsOn && options.metrics === "collect") answerClusterMetrics();
  // Static answers are serialized and compressed once (respond.ts staticBody) before the first
  // client arrives, not during its request (brotli 11 of /openapi.json takes ~250 ms); called on
  // the bare app, so that no metric counts it.
  await app({ method: "GET", url: "/openapi.json", headers: { "accept-encoding": "br" }, hasBody: false });
  const running = await startServer(metricsOn ? instrument(app) : app, { ...config, trusted: trustedProxies(config.trustedProxies) }, options.accessLogger, logger);
  if (metricsOn) watchServer(running);
  let metricsServer: MetricsServer | undefined;
  if (config.metricsPort !== undefined && (options.metrics ?? "serve") === "serve") {
    metricsServer = await startMetricsServer(config.metricsPort, config.host, logger);
  }
  state.shuttingDown = running.isShuttingDown;
  reloader.startPolling(config.releasePollMs);
  reloader.startScrub(config.scrubPeriodHours);
  return {
    running,
    app,
    registry,
    responseCache,
    ...(metricsServer ? { metricsPort: metricsServer.port } : {}),
    reload() {
      keys.reload(config, logger);
      return reloader.reloadAll(true);
    },
    drain() {
      state.draining = true;
      running.drain();
    },
    async stop() {
      await running.shutdown();
      await metricsServer?.close();
      await reloader.stop();
      await registry.close();
    },
  };
}
