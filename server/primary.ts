/**
 * The cluster primary (`npm start` with GEODATA_WORKERS > 1, the default on a machine with more
 * than one core): forks GEODATA_WORKERS workers, each running server/main.ts, i.e. loading every
 * dataset and serving HTTP on the shared port (node:cluster hands each new connection to one of
 * the workers that accept, in turn). The primary loads no dataset and answers no request.
 *
 * - Which workers accept (GEODATA_WORKER_POLICY): `pack` (default) starts with one and adds or
 *   removes one as the load and the machine's idle cores say, every POOL_TICK_MS
 *   (server/worker-pool.ts gives the rule and why); the others wait, ready. `spread`: all accept.
 *   If the only accepting worker dies, a ready one takes the port over at once.
 *
 * - A generated key (no GEODATA_API_KEYS) is made here, once, and given to every worker.
 * - SIGTERM / SIGINT: forwarded to every worker (each stops gracefully: in-flight requests finish
 *   within GEODATA_SHUTDOWN_GRACE_MS); the primary exits when they have, killing any worker still
 *   there a few seconds after the grace period.
 * - SIGHUP: forwarded to every worker (each re-reads its keys file and datasets itself).
 * - A worker that dies while serving is replaced (one second later); a worker that dies before any
 *   worker ever listened (bad configuration, port taken) stops the service with exit code 1.
 * - A serving worker whose event loop does not answer the heartbeat for GEODATA_HEARTBEAT_TIMEOUT_MS
 *   is killed (SIGKILL) and so replaced (server/heartbeat.ts).
 *
 * Memory: processes share no heap (a SharedArrayBuffer cannot cross processes), so each worker
 * holds its own copy of the datasets; README "Workers" gives the measured figures.
 */
import cluster, { type Worker } from "node:cluster";
import { randomBytes } from "node:crypto";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "../datasets/common/config.ts";
import type { Logger } from "../datasets/common/log.ts";
import { clusterMetricsText, startMetricsServer } from "./metrics/metrics-server.ts";
import { HEARTBEAT_INTERVAL_MS, HeartbeatWatch, isHeartbeat } from "./heartbeat.ts";
import { decide, FRESH_MEMORY, idleCoresBetween, isPoolMessage, POOL_TICK_MS, type PoolMemory, type ToWorker } from "./worker-pool.ts";

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
  const pack = config.workerPolicy === "pack";
  // PORT=0 (any free port): chosen here, once, so that a worker taking the port over gets the same one.
  if (pack && config.port === 0) env.PORT = String(await freePort(config.host));
  cluster.setupPrimary({ exec: main });

  let stopping = false;
  let everListened = false;
  let announced = false;
  const listening = new Set<number>();
  /** Under `pack`: each worker's state as the pool sees it (server/worker-pool.ts). */
  const pool = new Map<number, { worker: Worker; ready: boolean; accepting: boolean; elu: number; connections: number }>();
  let memory: PoolMemory = FRESH_MEMORY;
  let lastShares = 0;
  const acceptingCount = (): number => [...pool.values()].filter((m) => m.accepting).length;
  const tell = (worker: Worker, m: ToWorker): void => {
    if (worker.isConnected()) worker.send(m);
  };

  /** One step of the pool: who accepts, from the last readings. */
  function steer(idleCores: number): void {
    const workers = [...pool.entries()].map(([id, m]) => ({ id, ready: m.ready, accepting: m.accepting, elu: m.elu, connections: m.connections }));
    const decision = decide({ workers, idleCores }, memory);
    logger.debug("pool reading", { workers, idleCores });
    memory = decision.memory;
    for (const id of decision.shed?.ids ?? []) {
      const m = pool.get(id);
      if (m) tell(m.worker, { geodataPool: "shed", share: decision.shed!.share });
    }
    if (decision.accept !== undefined) {
      const m = pool.get(decision.accept)!;
      m.accepting = true;
      tell(m.worker, { geodataPool: "accept" });
      logger.info("worker accepts connections", { pid: m.worker.process.pid, accepting: acceptingCount(), idleCores: Number(idleCores.toFixed(2)) });
    }
    if (decision.stopAccepting !== undefined) {
      const m = pool.get(decision.stopAccepting)!;
      m.accepting = false;
      tell(m.worker, { geodataPool: "stop-accepting" });
      logger.info("worker stops accepting connections", { pid: m.worker.process.pid, accepting: acceptingCount() });
    }
    const shares = acceptingCount();
    // Every worker learns the count when it changes, and one told to accept learns it with that (it may have started since).
    if (shares > 0 && (shares !== lastShares || decision.accept !== undefined)) {
      lastShares = shares;
      for (const m of pool.values()) tell(m.worker, { geodataPool: "rate-shares", shares });
    }
  }

  let cpus = os.cpus();
  let cpusAt = performance.now();
  const ticker = pack
    ? setInterval(() => {
        const now = os.cpus();
        const at = performance.now();
        const idle = idleCoresBetween(cpus, now, at - cpusAt);
        cpus = now;
        cpusAt = at;
        steer(idle);
      }, POOL_TICK_MS).unref()
    : undefined;

  // A worker is watched from when it serves (listening, or ready under `pack`) until it exits.
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
    if (pack) {
      pool.set(worker.id, { worker, ready: false, accepting: false, elu: 0, connections: 0 });
      worker.on("message", (m: unknown) => {
        const member = pool.get(worker.id);
        if (!member || !isPoolMessage(m)) return;
        if (m.geodataPool === "ready") {
          member.ready = true;
          heartbeat.watch(worker.id, performance.now());
          // The first ready worker accepts at once, not a tick later.
          if (![...pool.values()].some((w) => w.accepting)) steer(0);
          announce();
        } else if (m.geodataPool === "load") {
          member.elu = m.elu;
          member.connections = m.connections;
        }
      });
    }
    return worker;
  };

  let port = 0;
  /** Logged once every worker has started (pack: ready, one accepting; spread: all listening). */
  function announce(): void {
    if (announced || !everListened) return;
    if (pack ? [...pool.values()].some((m) => !m.ready) || pool.size < config.workers : listening.size < config.workers) return;
    announced = true;
    const shownHost = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
    const base = `http://${shownHost}:${port}`;
    const pids = Object.values(cluster.workers ?? {}).map((w) => w?.process.pid);
    logger.info("all workers ready", { url: base, workers: config.workers, policy: config.workerPolicy, accepting: pack ? acceptingCount() : listening.size, pids });
    if (generatedKey) {
      process.stderr.write(
        `\nNo GEODATA_API_KEYS set: generated a key for this run only:\n\n  ${generatedKey}\n\n` +
          `Try:\n  curl -s -H 'X-Api-Key: ${generatedKey}' '${base}/geocode/search/2/json?q=Berlin&limit=1'\n\n`,
      );
    }
  }

  cluster.on("listening", (worker, address) => {
    listening.add(worker.id);
    heartbeat.watch(worker.id, performance.now());
    everListened = true;
    port = address.port;
    announce();
  });

  cluster.on("exit", (worker, code, signal) => {
    const wasListening = listening.delete(worker.id);
    const wasAccepting = pool.get(worker.id)?.accepting === true;
    pool.delete(worker.id);
    heartbeat.forget(worker.id);
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
    // The port stays served: a ready worker takes it over now.
    if (wasAccepting) steer(0);
    setTimeout(() => {
      if (!stopping) fork();
    }, 1000).unref();
  });

  function stop(signal: NodeJS.Signals, exitCode = 0): void {
    if (stopping) return;
    stopping = true;
    clearInterval(ticker);
    clearInterval(heartbeats);
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

  logger.info("starting workers", { workers: config.workers, policy: config.workerPolicy });
  for (let i = 0; i < config.workers; i++) fork();
  // GEODATA_METRICS_PORT: the workers' metrics summed (prom-client's AggregatorRegistry over IPC).
  if (config.metricsPort !== undefined) await startMetricsServer(config.metricsPort, config.host, logger, clusterMetricsText);
}

/** A port free on `host` now (PORT=0 under the pack policy: every worker must take the same one). */
async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
