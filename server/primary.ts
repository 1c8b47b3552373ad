/**
 * The cluster primary (`npm start` with GEODATA_WORKERS > 1, the default on a machine with more
 * than one core): forks GEODATA_WORKERS workers, each running server/main.ts, i.e. loading every
 * dataset and serving HTTP on the shared port (each worker accepts from the one listening socket;
 * SCHED_NONE, see below). The primary loads no dataset, accepts no connection, answers no request.
 *
 * - A generated key (no GEODATA_API_KEYS) is made here, once, and given to every worker.
 * - Before forking, every dataset's current release is checked once and remembered
 *   (datasets/check-before-fork.ts), so that the workers do not all hash the same new files.
 * - SIGTERM / SIGINT: forwarded to every worker (each drains for GEODATA_SHUTDOWN_DELAY_MS on
 *   SIGTERM, then stops gracefully: in-flight requests finish within GEODATA_SHUTDOWN_GRACE_MS); the
 *   primary exits when they have, killing any worker still there a few seconds after that.
 * - SIGHUP: forwarded to every worker (each re-reads its keys file and datasets itself).
 * - A worker that dies while serving is replaced (one second later); a worker that dies before any
 *   worker ever listened (bad configuration, port taken) stops the service with exit code 1.
 * - A serving worker whose event loop does not answer the heartbeat for GEODATA_HEARTBEAT_TIMEOUT_MS
 *   is killed (SIGKILL) and so replaced (server/heartbeat.ts); the kernel closes the connections it
 *   held, and the others take every new connection meanwhile (it does not accept).
 *
 * Memory: processes share no heap (a SharedArrayBuffer cannot cross processes); the datasets are
 * read where they lie, so the one copy of their files is the page cache's, shared by every worker.
 */
import cluster, { type Worker } from "node:cluster";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "../datasets/common/config.ts";
import type { Logger } from "../datasets/common/log.ts";
import { checkCurrentReleases } from "./datasets/check-before-fork.ts";
import { HEARTBEAT_INTERVAL_MS, HeartbeatWatch, isHeartbeat } from "./heartbeat.ts";
import { generatedKeyBanner, shownBaseUrl } from "./key-banner.ts";
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
  // A stopped worker's connections close when the heartbeat kills it: within the request timeout only if that comes first.
  if (config.heartbeatTimeoutMs + HEARTBEAT_INTERVAL_MS >= config.requestTimeoutMs) {
    logger.warn("a stopped worker's connections close only after the request timeout: keep GEODATA_HEARTBEAT_TIMEOUT_MS plus 1 s below GEODATA_REQUEST_TIMEOUT_MS", { heartbeatTimeoutMs: config.heartbeatTimeoutMs, requestTimeoutMs: config.requestTimeoutMs });
  }
  // Workers accept from the shared socket themselves (docs/http.md "Processes"): with node's round
  // robin the primary hands each connection to a worker and keeps its copy until the worker
  // acknowledges, so a worker stopped before acknowledging leaves it open and unanswered for ever.
  // Read by the first setupPrimary, so set before it.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  cluster.setupPrimary({ exec: main });

  let stopping = false;
  let everListened = false;
  let announced = false;
  const listening = new Set<number>();

  // A worker is watched from when it listens until it exits.
  const heartbeat = new HeartbeatWatch(config.heartbeatTimeoutMs);
  let beat = 0;
  const heartbeats = setInterval(() => {
    const now = performance.now();
    for (const { id, silentMs } of heartbeat.unresponsive(now)) {
      const worker = cluster.workers?.[id];
      if (!worker) continue;
      logger.error("worker unresponsive: killing it", { pid: worker.process.pid, silentMs, timeoutMs: config.heartbeatTimeoutMs });
      worker.process.kill("SIGKILL");
    }
    beat++;
    for (const id of heartbeat.watched()) {
      const worker = cluster.workers?.[id];
      if (worker?.isConnected()) worker.send({ geodataHeartbeat: beat });
    }
  }, HEARTBEAT_INTERVAL_MS).unref();

  const fork = (): Worker => {
    const worker = cluster.fork(env);
    worker.on("message", (m: unknown) => {
      if (isHeartbeat(m)) heartbeat.answered(worker.id, performance.now());
    });
    return worker;
  };

  cluster.on("listening", (worker, address) => {
    listening.add(worker.id);
    heartbeat.watch(worker.id, performance.now());
    everListened = true;
    // Logged once every worker listens.
    if (announced || listening.size < config.workers) return;
    announced = true;
    const base = shownBaseUrl(config.host, address.port);
    const pids = Object.values(cluster.workers ?? {}).map((w) => w?.process.pid);
    logger.info("all workers ready", { url: base, workers: config.workers, pids });
    if (generatedKey) process.stderr.write(generatedKeyBanner(generatedKey, base));
  });

  cluster.on("exit", (worker, code, signal) => {
    const wasListening = listening.delete(worker.id);
    heartbeat.forget(worker.id);
    if (stopping) {
      // A worker leaves cluster.workers only once both its exit and its IPC disconnect have come,
      // in either order: counting the live ones, the last exit is seen whichever comes first
      // (else the primary would end when its loop empties, without this line).
      if (Object.values(cluster.workers ?? {}).every((w) => w === undefined || w.isDead())) {
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
    clearInterval(heartbeats);
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    logger.info("stopping workers", { signal, workers: workers.length });
    if (workers.length === 0) process.exit(exitCode);
    for (const w of workers) w.process.kill("SIGTERM");
    setTimeout(() => {
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill("SIGKILL");
      process.exit(exitCode || 1);
    }, (signal === "SIGTERM" ? config.shutdownDelayMs : 0) + config.shutdownGraceMs + KILL_AFTER_GRACE_MS).unref();
    if (exitCode !== 0) process.exitCode = exitCode;
  }

  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => stop(signal));
  process.on("SIGHUP", () => {
    logger.info("signal received", { signal: "SIGHUP", forwardedTo: Object.keys(cluster.workers ?? {}).length });
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill("SIGHUP");
  });

  // The releases' files hashed once, here, rather than by every worker at once (check-before-fork.ts).
  const checkStarted = performance.now();
  await checkCurrentReleases(config.dataDir, logger).then(
    (check) => logger.info("releases checked", { ...check, ms: Math.round(performance.now() - checkStarted) }),
    (err: unknown) => logger.warn("releases not checked before forking; each worker checks its own", { reason: (err as Error).message }),
  );
  logger.info("starting workers", { workers: config.workers });
  for (let i = 0; i < config.workers; i++) fork();
  // GEODATA_METRICS_PORT: the workers' metrics summed (prom-client's AggregatorRegistry over IPC).
  if (config.metricsPort !== undefined) await startMetricsServer(config.metricsPort, config.host, logger, clusterMetricsText);
}
