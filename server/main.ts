/**
 * Serves the API from the artifacts in GEODATA_DATA_DIR, in this process or as a cluster worker
 * (server/primary.ts). With no GEODATA_API_KEYS, a random key is generated for this run and
 * printed (never a fixed default key); a worker gets its primary's.
 */
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import { readConfig } from "../datasets/common/config.ts";
import { createLogger } from "../datasets/common/log.ts";
import { answerHeartbeats } from "./heartbeat.ts";
import { createAccessLogger } from "./http/access-log.ts";
import { startIdleCollector } from "./idle-collector.ts";
import { generatedKeyBanner, shownBaseUrl } from "./key-banner.ts";
import { startService } from "./service.ts";

const config = readConfig(process.env);
const logger = createLogger({ minLevel: config.logLevel, base: { component: "server" } });
const accessLogger = createAccessLogger();
const generatedKey = config.apiKeys.length === 0 ? randomBytes(24).toString("base64url") : undefined;

// A cluster worker holds its share of the rate limit, and only counts its metrics: the primary
// serves the workers' sum on GEODATA_METRICS_PORT.
const service = await startService({
  config,
  logger,
  accessLogger,
  rateLimitShares: cluster.isWorker ? config.workers : 1,
  metrics: cluster.isWorker ? "collect" : "serve",
  ...(generatedKey !== undefined ? { generatedKey } : {}),
});
if (cluster.isWorker) {
  answerHeartbeats();
  // Test only: a worker whose event loop never returns, for the primary's heartbeat test (not reachable over HTTP).
  if (config.testHooks) {
    process.on("SIGUSR2", () => {
      for (;;);
    });
  }
}
// Memory back to the system when the traffic stops: one full collection in an idle second.
const MiB = 2 ** 20;
startIdleCollector((c) => logger.debug("collected garbage at idle", { ms: Math.round(c.ms), rssBeforeMiB: Math.round(c.rssBeforeBytes / MiB), rssAfterMiB: Math.round(c.rssAfterBytes / MiB) }));
const base = shownBaseUrl(config.host, service.running.port);
logger.info("listening", { url: base, datasets: service.registry.list().map((d) => `${d.name}:${d.status}`) });
if (generatedKey) process.stderr.write(generatedKeyBanner(generatedKey, base));

// SIGHUP: re-read the API keys file and the datasets' releases (server/datasets/reload.ts).
process.on("SIGHUP", () => {
  logger.info("signal received", { signal: "SIGHUP" });
  service.reload().then(
    (outcomes) => logger.info("reload finished", { outcomes }),
    (err: unknown) => logger.error("reload failed", { err }),
  );
});

// SIGTERM (an orchestrator, a rolling restart): drain first. /health/ready turns 503 at once so
// that balancers stop sending new requests, which are still answered for
// GEODATA_SHUTDOWN_DELAY_MS; then the graceful close. SIGINT (a terminal's Ctrl-C) closes at once.
let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    const delayMs = signal === "SIGTERM" ? config.shutdownDelayMs : 0;
    logger.info("signal received", { signal, drainMs: delayMs });
    service.drain();
    setTimeout(() => {
      service.stop().then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error("shutdown failed", { err });
          process.exit(1);
        },
      );
    }, delayMs);
  });
}
