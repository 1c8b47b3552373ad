/**
 * `tsx server/check-release.ts <dataset> <dir>`: opens one dataset laid out under `dir` (a release
 * directory) with the loader the server runs at startup, and prints one JSON line: `{"ok":true,
 * "counts":{...},"builtAt":...}` or `{"ok":false,"reason":"..."}` (exit 0 or 1). The nightly runs
 * it as a child process before publishing a release, so that the pipeline never imports server
 * code and a release is checked exactly as the server will check it.
 */
import path from "node:path";
import { DATASETS, DATASET_NAMES, type DatasetName } from "../datasets/catalog.ts";
import { readConfig } from "../datasets/common/config.ts";
import { createLogger } from "../datasets/common/log.ts";
import { LOADERS } from "./loaders.ts";
import type { DatasetLoader } from "./datasets/loader.ts";

async function main(argv: string[]): Promise<number> {
  const [name, dirArg] = argv;
  if (!name || !DATASET_NAMES.includes(name as DatasetName) || !dirArg) {
    process.stdout.write(JSON.stringify({ ok: false, reason: `usage: check-release <${DATASET_NAMES.join("|")}> <dir>` }) + "\n");
    return 2;
  }
  const dir = path.resolve(dirArg);
  const config = { ...readConfig(process.env), dataDir: dir };
  const spec = DATASETS[name as DatasetName];
  const logger = createLogger({ minLevel: "warn", base: { component: "check-release", dataset: name } });
  const loader = LOADERS[name as DatasetName] as DatasetLoader<unknown>;
  try {
    const loaded = await loader({ file: path.join(dir, spec.file), dataDir: dir, spec, config, logger });
    await loaded.close?.();
    process.stdout.write(JSON.stringify({ ok: true, counts: loaded.metadata.counts, builtAt: loaded.metadata.builtAt, formatVersion: loaded.metadata.formatVersion }) + "\n");
    return 0;
  } catch (err) {
    process.stdout.write(JSON.stringify({ ok: false, reason: (err as Error).message }) + "\n");
    return 1;
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
