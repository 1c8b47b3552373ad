/**
 * A rehearsal's data as the server loads it: starts the compiled server (`scripts/start.mjs
 * --no-default-build`, one process, GEODATA_WORKERS=1, answer cache off) on DATA_DIR, waits until
 * /health answers (the datasets are loaded before it listens), and prints one JSON line: the time
 * from spawn to that answer, each dataset's status and `loadMs` as /health gives them, and the
 * server's RSS then (VmRSS) and at its peak so far (VmHWM). Run it once more on an empty
 * directory for the server's own share.
 *
 *   npx tsx bench/scale/server-load.ts DATA_DIR
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../../datasets/common/paths.ts";
import { freePort, waitForHealth } from "../server-ready.ts";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: server-load.ts DATA_DIR");
const port = await freePort();
const started = performance.now();
const child = spawn(process.execPath, [path.join(PROJECT_ROOT, "scripts", "start.mjs"), "--no-default-build"], {
  cwd: PROJECT_ROOT,
  env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), GEODATA_DATA_DIR: path.resolve(dataDir), GEODATA_WORKERS: "1", GEODATA_RESPONSE_CACHE_MB: "0", GEODATA_RELEASE_POLL_MS: "0", GEODATA_API_KEYS: "server-load-key-0123456789" },
  stdio: ["ignore", "ignore", "pipe"],
});
let stderr = "";
child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
try {
  await waitForHealth(port, 50, () => (child.exitCode !== null ? `server exited before answering /health:\n${stderr}` : undefined));
  const readyS = (performance.now() - started) / 1000;
  const health = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as { content: { datasets: { name: string; status: string; loadMs?: number }[] } };
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  const mib = (field: string): number => Math.round(Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) / 1024);
  process.stdout.write(
    JSON.stringify({
      dataDir: path.basename(path.resolve(dataDir)),
      readyS: Number(readyS.toFixed(2)),
      datasets: Object.fromEntries(health.content.datasets.map((d) => [d.name, d.status === "ready" ? { loadMs: d.loadMs } : d.status])),
      rssMiB: mib("VmRSS"),
      peakRssMiB: mib("VmHWM"),
    }) + "\n",
  );
} finally {
  child.kill("SIGTERM");
}
