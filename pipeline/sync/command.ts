/**
 * `npm run pipeline -- sync --from <URL|DIR> [--data-dir DIR] [--datasets a,b] [--interval S]`:
 * pulls the releases a builder published (run.ts) into this node's data directory, once, or
 * every S seconds with `--interval` (until SIGTERM or SIGINT, which stop it between passes or
 * abort the pass under way: its partial files are resumed or removed by the next run).
 */
import path from "node:path";
import { DATASET_NAMES, type DatasetName } from "../../datasets/catalog.ts";
import type { Config } from "../../datasets/common/config.ts";
import { ConfigError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { StepOptions } from "../common/options.ts";
import { seconds } from "../common/progress.ts";
import { openOrigin } from "./origin.ts";
import { runSync } from "./run.ts";
import { exitCodeOf, summaryLine } from "./summary.ts";

export const SYNC_USAGE = `Usage: npm run pipeline -- sync --from <url|dir> [options]

Pulls new releases from a builder's data directory, served by any static HTTP server (no
directory listing needed) or mounted as a directory, into this node's data directory: files
first (resumed by Range, size and SHA-256 checked, hard-linked when a local release holds the
same SHA-256), the pointer last (datasets/releases/FORMAT.md, docs/pipeline.md).

Options:
  --from <url|dir>      the builder's data directory (required): http(s)://host/path or a path
  --data-dir <dir>      this node's data directory (default GEODATA_DATA_DIR)
  --datasets <a,b>      only these datasets (${DATASET_NAMES.join(", ")}); default every one
                        the builder publishes
  --interval <seconds>  sync again every this many seconds, until SIGTERM or SIGINT
Keeps GEODATA_KEEP_RELEASES releases per dataset.
Exit: 0 every dataset synced or unchanged, 1 some dataset failed (or one named by --datasets is
not published), 2 bad options. One JSON summary line per dataset on stdout; logs on stderr.`;

export interface SyncArgs {
  from: string;
  dataDir: string | undefined;
  datasets: DatasetName[] | undefined;
  intervalS: number | undefined;
}

export function parseSyncArgs(args: readonly string[]): SyncArgs {
  const o = new StepOptions("sync", args, ["from", "data-dir", "datasets", "interval"]);
  const interval = o.int("interval", 0, 1, 86_400);
  return {
    from: o.required("from", "the builder's data directory (an http(s) URL or a directory)"),
    dataDir: o.get("data-dir"),
    datasets: o.names("datasets", DATASET_NAMES, "dataset names"),
    intervalS: interval === 0 ? undefined : interval,
  };
}

export async function syncCommand(args: readonly string[], config: Config, logger: Logger): Promise<number> {
  const log = logger.child({ job: "sync" });
  let parsed: SyncArgs;
  try {
    parsed = parseSyncArgs(args);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n\n${SYNC_USAGE}\n`);
    return 2;
  }
  const origin = openOrigin(parsed.from);
  const dataDir = parsed.dataDir !== undefined ? path.resolve(parsed.dataDir) : config.dataDir;
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    log.info("signal received; stopping", { signal });
    stop.abort(new Error(`stopped by ${signal}`));
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  const etags = new Map();
  let code: 0 | 1 = 0;
  try {
    for (let pass = 1; ; pass++) {
      const started = performance.now();
      const summaries = await runSync({ config: { ...config, dataDir }, origin, logger: log, datasets: parsed.datasets, etags, signal: stop.signal });
      for (const s of summaries) process.stdout.write(summaryLine(s) + "\n");
      code = exitCodeOf(summaries, parsed.datasets);
      log.info("sync pass finished", { pass, from: origin.base, exit: code, elapsedS: seconds(performance.now() - started), statuses: Object.fromEntries(summaries.map((s) => [s.dataset, s.status])) });
      if (parsed.intervalS === undefined || stop.signal.aborted) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, parsed.intervalS! * 1000);
        stop.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        }, { once: true });
      });
      if (stop.signal.aborted) break;
    }
  } finally {
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
  }
  return code;
}
