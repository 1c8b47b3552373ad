/**
 * The fingerprint of an embedded-default build (release.json's `builder.fingerprint`): which
 * step, code and format version built it, from which inputs, with which options. It names files
 * by their path relative to the project and their content hash, never by where the checkout
 * lies: a checkout copied or moved elsewhere (`cp -a`, another worktree, a container's /app)
 * finds its built releases up to date instead of rebuilding every dataset.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import type { ReleaseSource } from "../../datasets/releases/manifest.ts";

export type FingerprintInput = {
  step: string;
  /** The step's hand-bumped version (PipelineStep.codeVersion). */
  codeVersion: number;
  /** The hash of the step's source files (code-fingerprint.ts; relative paths already), or "" for a stand-in step. */
  code: string;
  magic: string;
  formatVersion: number;
  /** The step's command line; absolute paths inside `root` are taken relative to it. */
  args: readonly string[];
  /** The input files: `url` is a location relative to the project when inside it (source-info.ts). */
  inputs: readonly ReleaseSource[];
  /** The project root the paths are made relative to. */
  root: string;
};

/** `value` relative to `root` (`/`-separated) when it is an absolute path inside it; else unchanged. */
export function projectRelative(value: string, root: string): string {
  if (!path.isAbsolute(value)) return value;
  const rel = path.relative(root, value);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return value;
  return rel.split(path.sep).join("/");
}

export function buildFingerprint(f: FingerprintInput): string {
  const hash = createHash("sha256");
  const args = f.args.map((a) => projectRelative(a, f.root));
  hash.update(JSON.stringify({ step: f.step, code: f.codeVersion, source: f.code, args }));
  hash.update(`${f.magic}:${f.formatVersion}`);
  for (const input of f.inputs) hash.update(`${projectRelative(input.url, f.root)}:${input.sha256}\n`);
  return hash.digest("hex");
}
