/**
 * `npm start` as a new user runs it (scripts/start.mjs): compiles to dist/ when the sources changed,
 * then runs the compiled server under plain node, here as a cluster of two workers serving an
 * empty data directory (GEODATA_SERVE_ONLY=1: no build). It answers liveness, says it is not ready
 * (every dataset missing), and stops with exit code 0 on SIGTERM. .ci/run runs this on the oldest
 * supported Node line too.
 */
import { spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../datasets/common/paths.ts";
import { until } from "../helpers/until.ts";
import { jsonLines } from "../server/primary-cluster.ts";

describe("npm start", () => {
  it("compiles, serves from dist/ with two workers, and stops on SIGTERM", async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-start-"));
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: "0", HOST: "127.0.0.1", GEODATA_WORKERS: "2", GEODATA_SERVE_ONLY: "1", GEODATA_DATA_DIR: dataDir, GEODATA_RELEASE_POLL_MS: "0", GEODATA_SHUTDOWN_DELAY_MS: "0", GEODATA_SHUTDOWN_GRACE_MS: "1000", GEODATA_API_KEYS: "start-test-key-0123456789" };
    let stderr = "";
    const exit = { code: undefined as number | null | undefined };
    // The same command line as package.json's "start" script, without npm in between (signals).
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, "scripts", "start.mjs")], { cwd: PROJECT_ROOT, env, stdio: ["ignore", "ignore", "pipe"] });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => (exit.code = code)); // "close": after the last of stderr
    try {
      // Compiling takes about a minute on a loaded machine.
      const ready = await until("all workers ready", () => jsonLines(stderr).find((l) => l.msg === "all workers ready") ?? (exit.code !== undefined ? new Error(stderr) : undefined), 240_000, 100);
      if (ready instanceof Error) throw ready;
      const base = ready.url as string;
      const live = await fetch(`${base}/health/live`);
      expect(live.status).toBe(200);
      await live.arrayBuffer();
      const readiness = await fetch(`${base}/health/ready`);
      expect(readiness.status).toBe(503);
      await readiness.arrayBuffer();
      child.kill("SIGTERM");
      await until("the exit", () => exit.code !== undefined, 30_000);
      expect(exit.code).toBe(0);
    } finally {
      if (exit.code === undefined) child.kill("SIGKILL");
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
