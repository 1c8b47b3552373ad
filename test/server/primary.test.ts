/**
 * The cluster primary (server/primary.ts) through the real start (server/start.ts, from the
 * TypeScript sources with tsx as node's loader), on an empty data directory so that the workers start in a
 * moment (every dataset missing: /health answers "degraded"): two workers share the port, one
 * generated key is printed once, SIGHUP reaches every worker, a killed worker is replaced, and
 * SIGTERM stops everything with exit code 0.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { promises as fs, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../datasets/common/paths.ts";

let dataDir: string;
let child: ChildProcess;
let stderr = "";
let base = "";
const exited = { code: undefined as number | null | undefined };

const lines = (): Record<string, unknown>[] =>
  stderr.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);

async function until<T>(what: string, f: () => T | undefined, ms = 30_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}; stderr:\n${stderr.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-primary-"));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: "0", HOST: "127.0.0.1", GEODATA_DATA_DIR: dataDir, GEODATA_WORKERS: "2", GEODATA_LOG_LEVEL: "info", GEODATA_RELEASE_POLL_MS: "0", GEODATA_SHUTDOWN_GRACE_MS: "1000" };
  delete env.GEODATA_API_KEYS;
  // tsx as a loader of this very process (not its CLI, which would add a parent process).
  child = spawn(process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "server", "start.ts"), "--no-default-build"], { cwd: PROJECT_ROOT, env, stdio: ["ignore", "ignore", "pipe"] });
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  child.on("exit", (code) => (exited.code = code));
  const ready = await until("all workers listening", () => lines().find((l) => l.msg === "all workers listening"), 60_000);
  base = ready.url as string;
}, 90_000);

afterAll(async () => {
  if (exited.code === undefined) child.kill("SIGKILL");
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe("cluster primary", () => {
  it("forks two workers that serve the port, and prints one generated key", async () => {
    const workers = await until("two workers", () => (childPids(child.pid!).length === 2 ? childPids(child.pid!) : undefined));
    expect(workers).toHaveLength(2);
    expect(lines().filter((l) => l.msg === "listening")).toHaveLength(2);
    expect(stderr.match(/generated a key for this run only/g)).toHaveLength(1);
    const key = /generated a key for this run only:\s+(\S+)/.exec(stderr)![1]!;
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { content: { state: string } }).content.state).toBe("degraded");
    // Every worker accepts the primary's key: the answer is 503 (no data), not 401.
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${base}/elevation/point/2/json?lat=1&lon=1`, { headers: { "X-Api-Key": key, Connection: "close" } });
      expect(res.status).toBe(503);
      await res.arrayBuffer();
    }
  });

  it("forwards SIGHUP to every worker", async () => {
    const before = lines().filter((l) => l.msg === "signal received" && l.signal === "SIGHUP" && l.component === "server").length;
    child.kill("SIGHUP");
    await until("both workers got SIGHUP", () => lines().filter((l) => l.msg === "signal received" && l.signal === "SIGHUP" && l.component === "server").length === before + 2);
  });

  it("replaces a worker that dies", async () => {
    const [victim] = childPids(child.pid!);
    process.kill(victim!, "SIGKILL");
    await until("a worker exit logged", () => lines().some((l) => l.msg === "worker exited" && l.pid === victim));
    await until("a new worker", () => {
      const now = childPids(child.pid!);
      return now.length === 2 && !now.includes(victim!);
    });
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    await health.arrayBuffer();
  });

  it("stops every worker on SIGTERM and exits 0", async () => {
    const workers = childPids(child.pid!);
    child.kill("SIGTERM");
    await until("the primary's exit", () => exited.code !== undefined, 20_000);
    expect(exited.code).toBe(0);
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
    expect(lines().some((l) => l.component === "primary" && l.msg === "stopped")).toBe(true);
  }, 30_000);
});
