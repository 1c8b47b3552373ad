/**
 * A pipeline step: a named batch job with declared inputs and outputs. Steps are idempotent and
 * publish their artifacts atomically (datasets/artifact/atomic-write.ts): a failed run leaves the
 * previous artifacts serving. Any failure throws; the CLI exits non-zero.
 */
import path from "node:path";
import type { Config } from "../../datasets/common/config.ts";
import type { Logger } from "../../datasets/common/log.ts";

export interface StepContext {
  /** `config.dataDir` is where the step writes its dataset: a release being assembled, when run by the pipeline. */
  config: Config;
  /** A logger whose lines carry `{ step: name }`. */
  logger: Logger;
  /**
   * Where downloads are cached across builds (default `<config.dataDir>/.cache`): the data
   * directory's, not the release's, when the step builds a release.
   */
  cacheDir?: string;
}

/** The step's download cache `<cacheDir>/<name>` (pipeline/common/source.ts, the forecast step's ranges). */
export function cacheDirOf(ctx: StepContext, name: "downloads" | "forecast"): string {
  return path.join(ctx.cacheDir ?? path.join(ctx.config.dataDir, ".cache"), name);
}

/**
 * An upstream a step read by itself rather than through the nightly's downloader (the forecast
 * step's `.idx` inventories and byte ranges), reported for the nightly's summary: one per model.
 */
export interface StepSourceReport {
  /** Where the model's files were read: a URL as the step saw it (mirror included) or a directory. */
  url: string;
  /**
   * `fetched`: read over the network (some of it at least); `cached`: every read served by the
   * step's download cache; `in-store`: the chosen runs were already built, none read again;
   * `local`: read from a local directory.
   */
  status: "fetched" | "cached" | "in-store" | "local";
  model: string;
  /** The runs chosen (ISO 8601 reference times), newest first. */
  runs: string[];
  /** GRIB files the new runs' fields came from. */
  files: number;
  /** Requests answered with a body (inventories, ranges, whole files). */
  requests: number;
  cacheHits: number;
  /** Bytes received over the network, failed attempts included (a local directory: 0). */
  bytesFetched: number;
  /** The newest Last-Modified of the responses, when the server sent one. */
  lastModified?: string;
}

/** What a step tells its caller about its own downloads (steps that download nothing return nothing). */
export interface StepReport {
  sources: StepSourceReport[];
  bytesFetched: number;
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
  run(args: string[], ctx: StepContext): Promise<StepReport | void>;
}
