/**
 * `npm run nightly` / `npm run pipeline -- nightly [options]`: parses the options, validates the
 * configuration (exit 2 when bad), takes the run lock, runs every dataset and prints one summary
 * line per dataset on stdout. Exit 0 when every dataset published or was unchanged, 1 when some
 * failed (or another run holds the lock), 2 for a bad configuration.
 */
import path from "node:path";
import { DATASET_NAMES, type DatasetName } from "../../datasets/catalog.ts";
import type { Config } from "../../datasets/common/config.ts";
import { ConfigError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { StepOptions } from "../common/options.ts";
import type { PipelineStep } from "../common/step.ts";
import { loadAllowlist } from "./checks.ts";
import { DEFAULT_CONFIG_FILE, loadNightlyConfig, profileConfigFile } from "./config.ts";
import { checkSourceNames } from "./dataset-args.ts";
import { LockHeldError } from "../releases/lock.ts";
import { acquireNightlyLock } from "./lock.ts";
import { runNightly } from "./run.ts";
import { exitCodeOf, summaryLine } from "./summary.ts";

export const NIGHTLY_USAGE = `Usage: npm run nightly -- [options]   (or npm run pipeline -- nightly [options])

Rebuilds every dataset of the configuration from its upstream sources into a new release,
checks it and publishes it (datasets/releases/FORMAT.md, docs/pipeline.md).

Options:
  --config <file>       the configuration (default pipeline/nightly.config.json)
  --profile <name>      a configuration shipped with the project instead:
                        light = the forecast alone, GFS 1.00 degree 0-120 h (about 40 MB)
  --mirror <url|dir>    read every upstream https://host/path from <base>/host/path
                        (default GEODATA_MIRROR)
  --only <name,...>     only these datasets (${DATASET_NAMES.join(", ")})
  --force               rebuild even when no source changed
Exit: 0 all published or unchanged, 1 some dataset failed (or another run holds the lock),
2 bad configuration. One JSON summary line per dataset on stdout; logs on stderr.`;

export interface NightlyArgs {
  config: string;
  mirror: string | undefined;
  only: DatasetName[] | undefined;
  force: boolean;
}

export function parseNightlyArgs(args: readonly string[]): NightlyArgs {
  const o = new StepOptions("nightly", args, { values: ["config", "profile", "mirror", "only"], flags: ["force"] });
  const config = o.get("config");
  const profile = o.get("profile");
  if (config !== undefined && profile !== undefined) throw new ConfigError("--profile", "either --config or --profile", "both");
  return {
    config: profile !== undefined ? profileConfigFile(profile) : (config ?? DEFAULT_CONFIG_FILE),
    mirror: o.get("mirror"),
    only: o.names("only", DATASET_NAMES, "dataset names"),
    force: o.flag("force"),
  };
}

export async function nightlyCommand(args: readonly string[], config: Config, logger: Logger, steps: readonly PipelineStep[]): Promise<number> {
  const log = logger.child({ job: "nightly" });
  let parsed: NightlyArgs;
  let nightly;
  let allowlist;
  try {
    parsed = parseNightlyArgs(args);
    nightly = loadNightlyConfig(parsed.config);
    for (const [name, plan] of Object.entries(nightly.datasets)) checkSourceNames(name as DatasetName, plan, path.basename(nightly.file));
    allowlist = loadAllowlist(nightly.allowlist);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    log.error("bad nightly configuration", { reason: err.message });
    process.stderr.write(`${err.message}\n\n${NIGHTLY_USAGE}\n`);
    return 2;
  }
  const mirror = parsed.mirror ? (/^https?:\/\//i.test(parsed.mirror) ? parsed.mirror : path.resolve(parsed.mirror)) : config.mirror;
  let lock;
  try {
    lock = await acquireNightlyLock(config.dataDir);
  } catch (err) {
    if (err instanceof LockHeldError) {
      log.error("nightly not started", { reason: err.message });
      return 1;
    }
    throw err;
  }
  if (lock.recoveredFrom !== undefined) log.warn("stale lock recovered", { file: lock.file, deadPid: lock.recoveredFrom.pid });
  const started = performance.now();
  try {
    log.info("nightly started", { config: path.basename(nightly.file), datasets: Object.keys(nightly.datasets), mirror: mirror ?? null, force: parsed.force });
    const summaries = await runNightly({ config: { ...config, mirror }, nightly, allowlist, steps, logger: log, force: parsed.force, only: parsed.only });
    for (const s of summaries) process.stdout.write(summaryLine(s) + "\n");
    const code = exitCodeOf(summaries);
    log.info("nightly finished", { exit: code, elapsedS: Math.round((performance.now() - started) / 100) / 10, statuses: Object.fromEntries(summaries.map((s) => [s.dataset, s.status])) });
    return code;
  } finally {
    await lock.release();
  }
}
