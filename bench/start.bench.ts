/**
 * Time to ready and memory of the server process, started from the TypeScript sources through
 * tsx (`npm run serve`) and from the compiled JavaScript (dist/server/main.js, what `npm start`
 * runs after its build check), on the test data (.cache/test-data). Ready = the first /health
 * answer. The embedded-default build check of `npm start` is left out: it is the same for both.
 *
 *   npm run bench -- start [--runs 3] [--workers 1]
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { PROJECT_ROOT } from "../datasets/common/paths.ts";
import { ensureDefaultData } from "../test/helpers/default-data.ts";
import { processTree } from "./proc-memory.ts";
import { freePort, waitForHealth } from "./server-ready.ts";

function option(name: string, fallback: string): string {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
}
const runs = Number(option("runs", "3"));
const workers = option("workers", "");

const STEPS = ["places", "admin", "elevation", "stations", "forecast"];
const dataDir = await ensureDefaultData(STEPS);
const build = spawn(process.execPath, [path.join(PROJECT_ROOT, "scripts", "build.mjs")], { stdio: "inherit" });
await new Promise((r) => build.once("exit", r));

const variants = {
  "tsx server/main.ts": [path.join(PROJECT_ROOT, "node_modules", "tsx", "dist", "cli.mjs"), path.join(PROJECT_ROOT, "server", "main.ts")],
  "node dist/server/main.js": [path.join(PROJECT_ROOT, "dist", "server", "main.js")],
};
const rows: Record<string, string | number>[] = [];
for (let run = 0; run < runs; run++) {
  for (const [name, args] of Object.entries(variants)) {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: "127.0.0.1", GEODATA_DATA_DIR: dataDir, GEODATA_API_KEYS: "bench-key-0123456789abcdef", GEODATA_LOG_LEVEL: "warn" };
    if (workers) env.GEODATA_WORKERS = workers;
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "ignore", "inherit"] });
    await waitForHealth(port, 20);
    const readyMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 500));
    const mem = processTree(child.pid!);
    rows.push({
      run: run + 1,
      start: name,
      "ready ms": Math.round(readyMs),
      processes: mem.length,
      "RSS MiB": Math.round(mem.reduce((a, m) => a + m.rssMiB, 0)),
      "PSS MiB": Math.round(mem.reduce((a, m) => a + m.pssMiB, 0)),
      "per process RSS MiB": mem.map((m) => Math.round(m.rssMiB)).join(" "),
    });
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
}
console.table(rows);
