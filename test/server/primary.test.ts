/**
 * The cluster primary (server/primary.ts) through the real start (server/start.ts, from the
 * TypeScript sources with tsx as node's loader), on an empty data directory so that the workers start in a
 * moment (every dataset missing: /health answers "degraded"): two workers start and both accept
 * from the shared socket, each holding half the rate limit; one generated key is printed
 * once; SIGHUP reaches every worker; a killed worker is replaced while the other serves; a worker
 * whose event loop is blocked is killed after the heartbeat timeout; SIGTERM stops everything with
 * exit code 0; a port in use stops the service with exit code 1.
 */
import type { ChildProcess } from "node:child_process";
import { promises as fs } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../helpers/until.ts";
import { childPids, jsonLines, scratchCluster, startCluster } from "./primary-cluster.ts";

let dataDir: string;
let child: ChildProcess;
let stderr = "";
let base = "";
const exited = { code: undefined as number | null | undefined };

const lines = (): Record<string, unknown>[] => jsonLines(stderr);

/** What a wait names on time-out: `what`, and the tail of the cluster's log (`log`, the shared one by default). */
function logged(what: string, log: () => string = () => stderr): () => string {
  return () => `${what}; stderr:\n${log().slice(-3000)}`;
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-primary-"));
  child = startCluster({ GEODATA_DATA_DIR: dataDir, GEODATA_RATE_LIMIT: "100/60s", GEODATA_SHUTDOWN_DELAY_MS: "2000" }, (d) => (stderr += d), (code) => (exited.code = code));
  const ready = await until(logged("all workers ready"), () => lines().find((l) => l.msg === "all workers ready"), 60_000);
  base = ready.url as string;
}, 90_000);

afterAll(async () => {
  if (exited.code === undefined) child.kill("SIGKILL");
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe("cluster primary", () => {
  it("forks two workers that both accept, each with half the rate limit, and prints one generated key", async () => {
    const workers = await until(logged("two workers"), () => (childPids(child.pid!).length === 2 ? childPids(child.pid!) : undefined));
    expect(workers).toHaveLength(2);
    // Each worker logs "listening" once its server listens, the moment the primary is told so: the
    // primary's "all workers ready" can be written before the last worker's line.
    const listening = await until(logged("two listening lines"), () => (lines().filter((l) => l.msg === "listening").length >= 2 ? lines().filter((l) => l.msg === "listening") : undefined));
    expect(listening).toHaveLength(2);
    expect(lines().find((l) => l.msg === "all workers ready")).toMatchObject({ workers: 2 });
    expect(stderr.match(/generated a key for this run only/g)).toHaveLength(1);
    const key = /generated a key for this run only:\s+(\S+)/.exec(stderr)![1]!;
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { content: { state: string } }).content.state).toBe("degraded");
    // Every worker has the primary's key: the answer is 503 (no data), not 401; each holds half
    // of GEODATA_RATE_LIMIT=100/60s.
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${base}/elevation/point/2/json?lat=1&lon=1`, { headers: { "X-Api-Key": key, Connection: "close" } });
      expect(res.status).toBe(503);
      expect(res.headers.get("ratelimit-policy")).toBe('"per-key";q=50;w=60');
      await res.arrayBuffer();
    }
  });

  it("forwards SIGHUP to every worker", async () => {
    const before = lines().filter((l) => l.msg === "signal received" && l.signal === "SIGHUP" && l.component === "server").length;
    child.kill("SIGHUP");
    await until(logged("both workers got SIGHUP"), () => lines().filter((l) => l.msg === "signal received" && l.signal === "SIGHUP" && l.component === "server").length === before + 2);
  });

  it("replaces a worker that dies while the other serves", async () => {
    const [victim] = childPids(child.pid!);
    process.kill(victim!, "SIGKILL");
    await until(logged("a worker exit logged"), () => lines().some((l) => l.msg === "worker exited" && l.pid === victim));
    // The same address serves meanwhile, from the other worker.
    const health = await fetch(`${base}/health`, { headers: { Connection: "close" } });
    expect(health.status).toBe(200);
    await health.arrayBuffer();
    await until(logged("a new worker"), () => {
      const now = childPids(child.pid!);
      return now.length === 2 && !now.includes(victim!);
    });
    // Serving (its signal handlers installed): the two first workers' lines and its own.
    await until(logged("the new worker listening"), () => lines().filter((l) => l.msg === "listening").length === 3);
  });

  it("on SIGTERM drains (ready 503, live 200) for GEODATA_SHUTDOWN_DELAY_MS, then stops every worker and exits 0", async () => {
    const workers = childPids(child.pid!);
    const sent = Date.now();
    child.kill("SIGTERM");
    // Both workers drain: readiness is 503 on either, liveness 200.
    await until(logged("both workers draining"), () => lines().filter((l) => l.msg === "signal received" && l.signal === "SIGTERM" && l.component === "server").length === 2, 10_000);
    for (let i = 0; i < 4; i++) {
      const ready = await fetch(`${base}/health/ready`, { headers: { Connection: "close" } });
      expect(ready.status).toBe(503);
      await ready.arrayBuffer();
      const live = await fetch(`${base}/health/live`, { headers: { Connection: "close" } });
      expect(live.status).toBe(200);
      await live.arrayBuffer();
    }
    await until(logged("the primary's exit"), () => exited.code !== undefined, 20_000);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(2000);
    expect(exited.code).toBe(0);
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
    expect(lines().some((l) => l.component === "primary" && l.msg === "stopped")).toBe(true);
  }, 30_000);
});

describe("cluster primary, a worker whose event loop is blocked", () => {
  it("is killed after the heartbeat timeout and replaced, and the other worker serves meanwhile", async () => {
    // GEODATA_TEST_HOOKS=1: a worker blocks its loop for ever on SIGUSR2 (server/main.ts).
    const cluster = await scratchCluster("blocked", { GEODATA_TEST_HOOKS: "1", GEODATA_HEARTBEAT_TIMEOUT_MS: "2000" });
    const parsed = cluster.lines;
    try {
      const ready = await until(logged("all workers ready", cluster.stderr), () => parsed().find((l) => l.msg === "all workers ready"), 60_000);
      const url = ready.url as string;
      // Both workers have logged "listening", i.e. installed the SIGUSR2 hook (before it, SIGUSR2 kills).
      await until(logged("both workers serving", cluster.stderr), () => parsed().filter((l) => l.msg === "listening").length === 2);
      const victim = childPids(cluster.primary.pid!)[0]!;
      process.kill(victim, "SIGUSR2");
      const killed = await until(logged("the blocked worker killed", cluster.stderr), () => parsed().find((l) => l.msg === "worker unresponsive: killing it" && l.pid === victim), 20_000);
      // The primary's own record of the kill: silent for at least the timeout, by its clock (the
      // test's clock would also count the signal's and the log's way on a loaded machine). Not left
      // for ever: the wait fails, with the cluster's log, when no kill comes.
      expect(killed).toMatchObject({ timeoutMs: 2000 });
      expect(killed.silentMs as number).toBeGreaterThanOrEqual(2000);
      await until(logged("its exit logged with SIGKILL", cluster.stderr), () => parsed().find((l) => l.msg === "worker exited" && l.pid === victim && l.signal === "SIGKILL"));
      // The address serves again at once, from the other worker.
      await until(logged("/health answered", cluster.stderr), async () => {
        try {
          const res = await fetch(`${url}/health`, { headers: { Connection: "close" }, signal: AbortSignal.timeout(1000) });
          await res.arrayBuffer();
          return res.status === 200;
        } catch {
          return undefined;
        }
      }, 5000);
      await until(logged("a replacement worker", cluster.stderr), () => {
        const now = childPids(cluster.primary.pid!);
        return now.length === 2 && !now.includes(victim);
      }, 30_000);
      // Only the blocked worker was judged unresponsive: the other kept answering its beats.
      expect(parsed().filter((l) => l.msg === "worker unresponsive: killing it").map((l) => l.pid)).toEqual([victim]);
    } finally {
      await cluster.close();
    }
  }, 90_000);
});

describe("cluster primary, port in use", () => {
  it("stops with exit code 1 when a worker cannot take the port", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const taken = (blocker.address() as net.AddressInfo).port;
    const cluster = await scratchCluster("port", { PORT: String(taken) });
    try {
      await until(logged("the primary's exit", cluster.stderr), () => cluster.exitCode() !== undefined, 60_000);
      expect(cluster.exitCode()).toBe(1);
      expect(cluster.stderr()).toContain("EADDRINUSE");
      expect(cluster.stderr()).toContain("a worker failed before serving; stopping");
    } finally {
      blocker.close();
      await cluster.close();
    }
  }, 90_000);
});

describe("cluster primary, a heartbeat timeout too long for the request timeout", () => {
  it("warns that a stopped worker's connections would outlast the request timeout", async () => {
    const cluster = await scratchCluster("timeouts", { GEODATA_HEARTBEAT_TIMEOUT_MS: "9500", GEODATA_REQUEST_TIMEOUT_MS: "10000" });
    try {
      const warning = await until(logged("the warning", cluster.stderr), () => cluster.lines().find((l) => l.level === "warn" && String(l.msg).startsWith("a stopped worker's connections")), 60_000);
      expect(warning).toMatchObject({ heartbeatTimeoutMs: 9500, requestTimeoutMs: 10000 });
    } finally {
      await cluster.close();
    }
  }, 90_000);
});
