/**
 * A pipeline step: a named batch job with declared inputs and outputs. Steps are idempotent and
 * publish their artifacts atomically (datasets/artifact/atomic-write.ts): a failed run leaves the
 * previous artifacts serving. Any failure throws; the CLI exits non-zero.
 */
import type { Config } from "../../datasets/common/config.ts";
import type { Logger } from "../../datasets/common/log.ts";

export interface StepContext {
  config: Config;
  /** A logger whose lines carry `{ step: name }`. */
  logger: Logger;
}

export interface EmbeddedDefault {
  /** Source files (absolute) whose content decides whether the default artifacts are stale. */
  inputs(ctx: StepContext): string[];
  /** Command-line arguments that build the embedded default from those inputs. */
  args(ctx: StepContext): string[];
}

export interface PipelineStep {
  name: string;
  /** One line for `--help`. */
  summary: string;
  /** Usage text of the step's own options, for `npm run pipeline -- <step> --help`. */
  usage: string;
  /**
   * Part of the embedded default's fingerprint, beside a hash of the step's source files
   * (pipeline/common/code-fingerprint.ts), which already rebuilds the default on any code change:
   * bump it only for a change the source cannot show (e.g. a new upstream file layout).
   */
  codeVersion: number;
  /** Present for steps that build a dataset of the embedded default (run by `npm start`). */
  embeddedDefault?: EmbeddedDefault;
  run(args: string[], ctx: StepContext): Promise<void>;
}
