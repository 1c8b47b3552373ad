/**
 * The server's start (`npm start` runs the compiled copy, dist/server/start.js, through
 * scripts/start.mjs): builds the embedded-default artifacts that are missing or stale (the
 * pipeline runs as a child process, so server code never imports pipeline code), then serves. A
 * failed build is reported and the server still starts on whatever artifacts exist: the endpoints
 * whose dataset is missing answer 503 and /health says why.
 *
 * With GEODATA_WORKERS > 1 (default: the number of cores) the serving is done by node:cluster
 * workers (server/primary.ts); with 1, by this process.
 *
 * Compiled, the pipeline runs compiled too (dist/pipeline/cli.js under plain node); from the
 * TypeScript sources (`npx tsx server/start.ts`) it runs through tsx.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readConfig } from "../datasets/common/config.ts";
import { createLogger } from "../datasets/common/log.ts";
import { PROJECT_ROOT } from "../datasets/common/paths.ts";

const compiled = import.meta.url.endsWith(".js");
const pipelineCli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "pipeline", compiled ? "cli.js" : "cli.ts");

function run(args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const runner = compiled ? [] : [path.join(PROJECT_ROOT, "node_modules", "tsx", "dist", "cli.mjs")];
    const child = spawn(process.execPath, [...runner, ...args], { stdio: "inherit", cwd: PROJECT_ROOT });
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

const config = readConfig(process.env);
// GEODATA_SERVE_ONLY=1 or `npm start -- --no-default-build`: serve the data directory as it is
// (replicas of a synced or shared data directory, benches). Builds that do run take the data
// directory's build lock, so replicas sharing one never build the same files at once.
if (!config.serveOnly && !process.argv.includes("--no-default-build")) {
  const built = await run([pipelineCli, "build-default"]);
  if (built !== 0) {
    process.stderr.write(`Building the embedded default failed (exit ${built}); serving the artifacts that exist.\n`);
  }
}
// GEODATA_WORKERS > 1: a cluster primary forks the workers (each runs main.ts); else serve here.
if (config.workers > 1) {
  const { runPrimary } = await import("./primary.ts");
  await runPrimary(config, createLogger({ minLevel: config.logLevel, base: { component: "primary" } }));
} else {
  await import("./main.ts");
}
