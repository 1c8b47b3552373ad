/**
 * `npm start`: builds the embedded-default artifacts that are missing or stale (the pipeline runs
 * as a child process, so server code never imports pipeline code), then serves. A failed build
 * is reported and the server still starts on whatever artifacts exist: the endpoints whose
 * dataset is missing answer 503 and /health says why.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { PROJECT_ROOT } from "../datasets/common/paths.ts";

function run(args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, "node_modules", "tsx", "dist", "cli.mjs"), ...args], {
      stdio: "inherit",
      cwd: PROJECT_ROOT,
    });
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

const built = await run([path.join(PROJECT_ROOT, "pipeline", "cli.ts"), "build-default"]);
if (built !== 0) {
  process.stderr.write(`Building the embedded default failed (exit ${built}); serving the artifacts that exist.\n`);
}
await import("./main.ts");
