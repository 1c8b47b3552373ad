/**
 * Serves the API from the artifacts in GEODATA_DATA_DIR. With no GEODATA_API_KEYS, a random key
 * is generated for this run and printed (never a fixed default key).
 */
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import { readConfig } from "../datasets/common/config.ts";
import { createLogger } from "../datasets/common/log.ts";
import { createAccessLogger } from "./http/access-log.ts";
import { answerHeartbeats } from "./heartbeat.ts";
import { joinPool } from "./pool-worker.ts";
import { startService } from "./service.ts";

const config = readConfig(process.env);
const logger = createLogger({ minLevel: config.logLevel, base: { component: "server" } });
const accessLogger = createAccessLogger();

let generatedKey: string | undefined;
if (config.apiKeys.length === 0) {
  generatedKey = randomBytes(24).toString("base64url");
  config.apiKeys = [generatedKey];
}

// A cluster worker (server/primary.ts) holds its share of the rate limit, and only counts its
// metrics: the primary serves the workers' sum on GEODATA_METRICS_PORT. Under the `pack` policy
// it accepts connections only when the primary says so (server/worker-pool.ts).
const pooled = cluster.isWorker && config.workerPolicy === "pack";
const service = await startService({
  config,
  logger,
  accessLogger,
  rateLimitShares: cluster.isWorker ? config.workers : 1,
  metrics: cluster.isWorker ? "collect" : "serve",
  standby: pooled,
});
if (cluster.isWorker) {
  answerHeartbeats();
  // Test only: a worker whose event loop never returns, for the primary's heartbeat test (not reachable over HTTP).
  if (config.testHooks) process.on("SIGUSR2", () => {
    for (;;);
  });
}
const shownHost = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
const urlOf = (port: number): string => `http://${shownHost}:${port}`;
const logListening = (port: number): void => logger.info("listening", { url: urlOf(port), datasets: service.registry.list().map((d) => `${d.name}:${d.status}`) });
const base = urlOf(service.running.port);
if (pooled) joinPool(service, logger, logListening);
else logListening(service.running.port);
if (generatedKey) {
  // Printed once, to the terminal of whoever started the server; not a log line, so it never
  // reaches a log collector that reads the JSON lines.
  process.stderr.write(
    `\nNo GEODATA_API_KEYS set: generated a key for this run only:\n\n  ${generatedKey}\n\n` +
      `Try:\n  curl -s -H 'X-Api-Key: ${generatedKey}' '${base}/geocode/search/2/json?q=Berlin&limit=1'\n\n`,
  );
}

// SIGHUP: re-read the API keys file and the datasets' releases (server/datasets/reload.ts).
process.on("SIGHUP", () => {
  logger.info("signal received", { signal: "SIGHUP" });
  service.reload().then(
    (outcomes) => logger.info("reload finished", { outcomes }),
    (err: unknown) => logger.error("reload failed", { err }),
  );
});

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info("signal received", { signal });
    service.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error("shutdown failed", { err });
        process.exit(1);
      },
    );
  });
}
