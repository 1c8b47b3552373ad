/**
 * Builds the embedded default: every step that declares an `embeddedDefault`, skipped when its
 * stamp says the inputs, the step's code (every source file its module imports, directly or not:
 * pipeline/common/code-fingerprint.ts) and the dataset's format version are unchanged and the
 * artifact is still there. `npm start` runs this before serving; tests run it for the
 * datasets they need.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { DATASETS } from "../datasets/catalog.ts";
import type { Config } from "../datasets/common/config.ts";
import type { Logger } from "../datasets/common/log.ts";
import { sha256File } from "../datasets/artifact/source-info.ts";
import { writeFileAtomic } from "../datasets/artifact/atomic-write.ts";
import type { PipelineStep } from "./common/step.ts";
import { codeFingerprint } from "./common/code-fingerprint.ts";
import { STEP_MODULES, STEPS } from "./steps.ts";
import { PROJECT_ROOT } from "../datasets/common/paths.ts";

const STAMP_DIR = ".default-build";

interface Stamp {
  step: string;
  fingerprint: string;
  builtAt: string;
}

async function fingerprintOf(step: PipelineStep, inputs: string[], args: string[]): Promise<string> {
  const hash = createHash("sha256");
  const module = STEP_MODULES[step.name];
  // A step without a known module (a test's stand-in) is fingerprinted by its version alone.
  const code = module === undefined ? "" : codeFingerprint(path.join(PROJECT_ROOT, module));
  hash.update(JSON.stringify({ step: step.name, code: step.codeVersion, source: code, args }));
  const dataset = Object.values(DATASETS).find((d) => d.step === step.name);
  if (dataset) hash.update(`${dataset.magic}:${dataset.formatVersion}`);
  for (const input of inputs) hash.update(`${path.basename(input)}:${await sha256File(input)}`);
  return hash.digest("hex");
}

function stampPath(config: Config, step: string): string {
  return path.join(config.dataDir, STAMP_DIR, `${step}.json`);
}

async function isFresh(config: Config, step: PipelineStep, fingerprint: string): Promise<boolean> {
  try {
    const stamp = JSON.parse(await fs.readFile(stampPath(config, step.name), "utf8")) as Stamp;
    if (stamp.fingerprint !== fingerprint) return false;
    const dataset = Object.values(DATASETS).find((d) => d.step === step.name);
    if (dataset) await fs.access(path.join(config.dataDir, dataset.file));
    return true;
  } catch {
    return false;
  }
}

export interface BuildDefaultOptions {
  /** Only these steps (by name); default all with an embedded default. */
  only?: readonly string[];
  /** Rebuild even when fresh. */
  force?: boolean;
}

/** Returns the names of the steps it ran. Throws on the first failure (earlier artifacts stay). */
export async function buildDefault(config: Config, logger: Logger, options: BuildDefaultOptions = {}, steps: readonly PipelineStep[] = STEPS): Promise<string[]> {
  const selected = steps.filter((s) => s.embeddedDefault && (!options.only || options.only.includes(s.name)));
  const ran: string[] = [];
  for (const [i, step] of selected.entries()) {
    const ctx = { config, logger: logger.child({ step: step.name }) };
    const embedded = step.embeddedDefault!;
    const inputs = embedded.inputs(ctx);
    const args = embedded.args(ctx);
    const fingerprint = await fingerprintOf(step, inputs, args);
    if (!options.force && (await isFresh(config, step, fingerprint))) {
      ctx.logger.info("up to date", { stepIndex: i + 1, steps: selected.length });
      continue;
    }
    const started = performance.now();
    ctx.logger.info("building embedded default", { stepIndex: i + 1, steps: selected.length, args });
    await step.run(args, ctx);
    const stamp: Stamp = { step: step.name, fingerprint, builtAt: new Date().toISOString() };
    await writeFileAtomic(stampPath(config, step.name), [Buffer.from(JSON.stringify(stamp, null, 2))]);
    ctx.logger.info("built", { elapsedS: Math.round((performance.now() - started) / 100) / 10 });
    ran.push(step.name);
  }
  return ran;
}
