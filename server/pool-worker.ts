/**
 * A cluster worker's half of the worker pool (server/worker-pool.ts): it says when it is ready,
 * reports its event-loop utilization every POOL_TICK_MS, and starts or stops accepting
 * connections, closes a share of them, or takes its share of the rate limit as the primary says.
 */
import { performance } from "node:perf_hooks";
import type { Logger } from "../datasets/common/log.ts";
import type { Service } from "./service.ts";
import { isPoolMessage, POOL_TICK_MS, type FromWorker } from "./worker-pool.ts";

/** `onAccepting` is called with the port each time the worker starts accepting (main.ts logs it). */
export function joinPool(service: Service, logger: Logger, onAccepting: (port: number) => void): void {
  const send = (m: FromWorker): void => {
    if (process.connected) process.send?.(m);
  };
  process.on("message", (m: unknown) => {
    if (!isPoolMessage(m)) return;
    switch (m.geodataPool) {
      case "accept":
        service.running.accept().then(
          onAccepting,
          (err: unknown) => {
            // The primary sees the exit and gives the port to another worker.
            logger.error("cannot accept connections", { err });
            process.exit(1);
          },
        );
        break;
      case "stop-accepting":
        service.running.stopAccepting();
        logger.info("stopped accepting connections", { reason: "the other workers keep up" });
        break;
      case "shed":
        service.running.shed(m.share);
        break;
      case "rate-shares":
        service.setRateLimitShares(m.shares);
        break;
      default:
        break;
    }
  });
  let last = performance.eventLoopUtilization();
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    send({ geodataPool: "load", elu: performance.eventLoopUtilization(now, last).utilization, connections: service.running.connections });
    last = now;
  }, POOL_TICK_MS).unref();
  send({ geodataPool: "ready" });
}
