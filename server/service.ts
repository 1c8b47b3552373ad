/**
 * Wires the service together: datasets, key checker, app, node:http. Used by server/main.ts and
 * by the tests (port 0), so both run exactly the same code.
 */
import type { Config } from "../datasets/common/config.ts";
import type { Logger } from "../datasets/common/log.ts";
import { loadDatasets, type DatasetRegistry, type LoaderTable } from "./datasets/registry.ts";
import { ENDPOINTS } from "./endpoints/routes.ts";
import { createApp } from "./http/app.ts";
import { RateLimiter } from "./http/rate-limit.ts";
import { KeyChecker } from "./http/auth.ts";
import { startServer, type RunningServer } from "./http/node-server.ts";
import { buildOpenApi } from "./openapi/document.ts";

export interface Service {
  running: RunningServer;
  registry: DatasetRegistry;
  /** Stops the HTTP server (gracefully) and releases datasets. */
  stop(): Promise<void>;
}

export interface ServiceOptions {
  config: Config;
  logger: Logger;
  /** Where request lines go (stdout in production). */
  accessLogger: Logger;
  loaders?: LoaderTable;
  /** How many processes share GEODATA_RATE_LIMIT (cluster workers): each holds 1/shares of it. Default 1. */
  rateLimitShares?: number;
  /** The instant of a request (default the system clock); tests fix it. */
  now?: () => Date;
}

export async function startService(options: ServiceOptions): Promise<Service> {
  const { config, logger } = options;
  const registry = await loadDatasets(config, logger, options.loaders);
  let openapi: unknown;
  const state = { shuttingDown: () => false };
  const app = createApp({
    endpoints: ENDPOINTS,
    registry,
    keys: new KeyChecker(config.apiKeys),
    openapi: () => (openapi ??= buildOpenApi(ENDPOINTS)),
    logger,
    isShuttingDown: () => state.shuttingDown(),
    corsOrigins: config.corsOrigins,
    ...(config.rateLimit ? { rateLimiter: new RateLimiter(config.rateLimit, options.rateLimitShares ?? 1) } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const running = await startServer(app, config, options.accessLogger, logger);
  state.shuttingDown = running.isShuttingDown;
  return {
    running,
    registry,
    async stop() {
      await running.shutdown();
      await registry.close();
    },
  };
}
