/**
 * The pipeline command line: `npm run pipeline -- <step> [options]`, `--help` for the list.
 * A step that builds a dataset builds a new release of it and publishes it
 * (pipeline/releases/build-release.ts). Exits non-zero on any failure, with the error as a JSON
 * log line.
 */
import { readConfig } from "../datasets/common/config.ts";
import { createLogger } from "../datasets/common/log.ts";
import { buildDefault } from "./build-default.ts";
import { NIGHTLY_USAGE, nightlyCommand } from "./nightly/command.ts";
import { STEPS } from "./steps.ts";
import { DATASETS } from "../datasets/catalog.ts";
import { buildRelease } from "./releases/build-release.ts";
import { lockDataset } from "./releases/dataset-lock.ts";
import { SYNC_USAGE, syncCommand } from "./sync/command.ts";

function usage(): string {
  const width = Math.max(14, ...STEPS.map((s) => s.name.length)) + 2;
  const lines = [
    "Usage: npm run pipeline -- <step> [options]",
    "       npm run pipeline -- <step> --help",
    "",
    "Steps:",
    `  ${"build-default".padEnd(width)}Build every dataset of the embedded default that is missing or stale (--force: all).`,
    `  ${"nightly".padEnd(width)}Rebuild every dataset from its upstream sources into checked, atomically published releases.`,
    `  ${"sync".padEnd(width)}Pull new releases from a builder's data directory (an HTTP URL or a directory).`,
    ...STEPS.map((s) => `  ${s.name.padEnd(width)}${s.summary}`),
    "",
    "Each dataset's build is a new release under GEODATA_DATA_DIR/releases/ (default ./data; datasets/releases/FORMAT.md).",
    "Logs are JSON lines on stderr.",
  ];
  return lines.join("\n");
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(usage() + "\n");
    return name ? 0 : 2;
  }
  const config = readConfig(process.env);
  const logger = createLogger({ minLevel: config.logLevel, base: { component: "pipeline" } });
  if (name === "build-default") {
    if (rest.includes("--help")) {
      process.stdout.write("Usage: npm run pipeline -- build-default [--force] [--only step,step]\n");
      return 0;
    }
    const onlyIdx = rest.indexOf("--only");
    const only = onlyIdx >= 0 ? (rest[onlyIdx + 1] ?? "").split(",").filter(Boolean) : undefined;
    await buildDefault(config, logger, { force: rest.includes("--force"), ...(only ? { only } : {}) });
    return 0;
  }
  if (name === "nightly") {
    if (rest.includes("--help") || rest.includes("-h")) {
      process.stdout.write(NIGHTLY_USAGE + "\n");
      return 0;
    }
    return nightlyCommand(rest, config, logger, STEPS);
  }
  if (name === "sync") {
    if (rest.includes("--help") || rest.includes("-h")) {
      process.stdout.write(SYNC_USAGE + "\n");
      return 0;
    }
    return syncCommand(rest, config, logger);
  }
  const step = STEPS.find((s) => s.name === name);
  if (!step) {
    process.stderr.write(`Unknown step ${JSON.stringify(name)}.\n\n${usage()}\n`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(`Usage: npm run pipeline -- ${step.name} [options]\n\n${step.summary}\n\n${step.usage}\n`);
    return 0;
  }
  const started = performance.now();
  const stepLogger = logger.child({ step: step.name });
  const spec = Object.values(DATASETS).find((d) => d.step === step.name);
  if (!spec) {
    await step.run(rest, { config, logger: stepLogger });
  } else {
    const lock = await lockDataset(config.dataDir, spec.name, stepLogger);
    try {
      await buildRelease({ config, dataset: spec.name, step, args: rest, builder: { kind: "step" }, sources: [], logger: stepLogger });
    } finally {
      await lock.release();
    }
  }
  stepLogger.info("step finished", { elapsedS: Math.round((performance.now() - started) / 100) / 10 });
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const logger = createLogger({ base: { component: "pipeline" } });
    logger.error("pipeline failed", { err });
    process.exit(1);
  },
);
