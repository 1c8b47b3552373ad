/**
 * `npm run bench`: runs every bench/*.bench.ts file in turn, each in its own process (so heap
 * figures are not mixed), and stops at the first failure. `npm run bench -- geocode` runs the
 * files whose name contains "geocode"; a name that is a file's own (`http` for http.bench.ts)
 * runs that file alone, not http-cache.bench.ts beside it.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../datasets/common/paths.ts";

const filter = process.argv[2];
const dir = path.join(PROJECT_ROOT, "bench");
const matching = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts") && (!filter || f.includes(filter)))
  .sort();
const files = matching.includes(`${filter}.bench.ts`) ? [`${filter}.bench.ts`] : matching;
if (files.length === 0) {
  process.stderr.write(`no bench file matches ${JSON.stringify(filter ?? "")}\n`);
  process.exit(2);
}
const tsx = path.join(PROJECT_ROOT, "node_modules", "tsx", "dist", "cli.mjs");
for (const f of files) {
  process.stdout.write(`\n=== ${f}\n`);
  const result = spawnSync(process.execPath, ["--expose-gc", tsx, path.join(dir, f), ...process.argv.slice(3)], { stdio: "inherit", cwd: PROJECT_ROOT });
  if (result.status !== 0) {
    process.stderr.write(`${f} failed (exit ${result.status})\n`);
    process.exit(result.status ?? 1);
  }
}
