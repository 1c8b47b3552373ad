/**
 * The cluster primary (`npm start` with GEODATA_WORKERS > 1, the default on a machine with more
 * than one core): forks GEODATA_WORKERS workers, each running server/main.ts, i.e. loading every
 * dataset and serving HTTP on the shared port (node:cluster hands each new connection to a worker
 * in turn). The primary loads no dataset and answers no request.
 *
 * - A generated key (no GEODATA_API_KEYS) is made here, once, and given to every worker.
 * - SIGTERM / SIGINT: forwarded to every worker (each stops gracefully: in-flight requests finish
 *   within GEODATA_SHUTDOWN_GRACE_MS); the primary exits when they have, killing any worker still
 *   there a few seconds after the grace period.
 * - SIGHUP: forwarded to every worker (each re-reads its keys file and datasets itself).
 * - A worker that dies while serving is replaced (one second later); a worker that dies before any
 *   worker ever listened (bad configuration, port taken) stops the service with exit code 1.
 *
 * Memory: processes share no heap (a SharedArrayBuffer cannot cross processes), so each worker
 * holds its own copy of the datasets; README "Workers" gives the measured figures.
 */
import cluster, { type Worker } from "node:cluster";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "../datasets/common/config.ts";
import type { Logger } from "../datasets/common/log.ts";
import { clusterMetricsText, startMetricsServer } from "./metrics/metrics-server.ts";

const KILL_AFTER_GRACE_MS = 5_000;

export async function runPrimary(config: Config, logger: Logger): Promise<void> {
  const here = fileURLToPath(import.meta.url);
  const main = path.join(path.dirname(here), here.endsWith(".js") ? "main.js" : "main.ts");
  const env: Record<string, string> = {};
  let generatedKey: string | undefined;
  if (config.apiKeys.length === 0) {
    generatedKey = randomBytes(24).toString("base64url");
    env.GEODATA_API_KEYS = generatedKey;
  }
  cluster.setupPrimary({ exec: main });

  let stopping = false;
  let everListened = false;
  const listening = new Set<number>();
  const fork = (): Worker => cluster.fork(env);

  cluster.on("listening", (worker, address) => {
    listening.add(worker.id);
    if (everListened || listening.size < config.workers) return;
    everListened = true;
    const shownHost = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
    const base = `http://${shownHost}:${address.port}`;
    logger.info("all workers listening", { url: base, workers: config.workers, pids: Object.values(cluster.workers ?? {}).map((w) => w?.process.pid) });
    if (generatedKey) {
      process.stderr.write(
        `\nNo GEODATA_API_KEYS set: generated a key for this run only:\n\n  ${generatedKey}\n\n` +
          `Try:\n  curl -s -H 'X-Api-Key: ${generatedKey}' '${base}/geocode/search/2/json?q=Berlin&limit=1'\n\n`,
      );
    }
  });

  cluster.on("exit", (worker, code, signal) => {
    const wasListening = listening.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        logger.info("stopped", { workers: config.workers });
        process.exit(process.exitCode ?? 0);
      }
      return;
    }
    logger.error("worker exited", { pid: worker.process.pid, code, signal });
    if (!wasListening && !everListened) {
      logger.error("a worker failed before serving; stopping", { pid: worker.process.pid });
      stop("SIGTERM", 1);
      return;
    }
    setTimeout(() => {
      if (!stopping) fork();
    }, 1000).unref();
  });

  function stop(signal: NodeJS.Signals, exitCode = 0): void {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    logger.info("stopping workers", { signal, workers: workers.length });
    if (workers.length === 0) process.exit(exitCode);
    for (const w of workers) w.process.kill("SIGTERM");
    setTimeout(() => {
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill("SIGKILL");
      process.exit(exitCode || 1);
    }, config.shutdownGraceMs + KILL_AFTER_GRACE_MS).unref();
    if (exitCode !== 0) process.exitCode = exitCode;
  }

  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => stop(signal));
  process.on("SIGHUP", () => {
    logger.info("signal received", { signal: "SIGHUP", forwardedTo: Object.keys(cluster.workers ?? {}).length });
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill("SIGHUP");
  });

  logger.info("starting workers", { workers: config.workers });
  for (let i = 0; i < config.workers; i++) fork();
  // GEODATA_METRICS_PORT: the workers' metrics summed (prom-client's AggregatorRegistry over IPC).
  if (config.metricsPort !== undefined) await startMetricsServer(config.metricsPort, config.host, logger, clusterMetricsText);
}
