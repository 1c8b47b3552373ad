/**
 * The final report of a nightly run: one JSON line per dataset on stdout (status, source
 * versions, bytes fetched, durations, counts and their deltas against the previous release), and
 * the exit code: 0 when every dataset published (or was unchanged), 1 when some failed.
 */
import type { DatasetName } from "../../datasets/catalog.ts";
import type { StepSourceReport } from "../common/step.ts";
import type { CountDelta } from "./checks.ts";

export type DatasetStatus = "published" | "unchanged" | "failed";

/** A source the nightly downloaded (or read in place): one file, one version. */
export interface FileSourceReport {
  url: string;
  status: "fetched" | "not-modified" | "local";
  size: number;
  sha256: string;
  etag?: string;
  lastModified?: string;
}

/**
 * A file's version, or a model's runs that the step read itself (the forecast step: `.idx`
 * inventories and byte ranges; `model`, `runs`, `files` instead of a size and checksum).
 */
export type SourceReport = FileSourceReport | StepSourceReport;

export interface DatasetSummary {
  dataset: DatasetName;
  status: DatasetStatus;
  /** The release serving after this run (new when published, previous otherwise). */
  release: string | undefined;
  previousRelease: string | undefined;
  /** Which stage failed, and why. */
  failedAt?: "fetch" | "build" | "check" | "publish";
  reason?: string;
  sources: SourceReport[];
  /** Bytes received over the network: the nightly's downloads and the step's own. */
  bytesFetched: number;
  durations: { fetchS: number; buildS: number; checkS: number; totalS: number };
  counts: Record<string, number>;
  deltas: Record<string, CountDelta>;
  /** Count jumps accepted by the allowlist, with its reason. */
  allowed: string[];
  /** Releases deleted to keep GEODATA_KEEP_RELEASES. */
  pruned: string[];
}

export function summaryLine(s: DatasetSummary): string {
  return JSON.stringify({ time: new Date().toISOString(), msg: "nightly dataset", ...s });
}

export function exitCodeOf(summaries: readonly DatasetSummary[]): 0 | 1 {
  return summaries.some((s) => s.status === "failed") ? 1 : 0;
}
