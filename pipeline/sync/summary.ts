/**
 * The report of a sync pass: one JSON line per dataset on stdout (what was synced, from how many
 * files linked, copied or downloaded, the bytes the network carried) and the exit code.
 */
import type { DatasetName } from "../../datasets/catalog.ts";

/**
 * `synced`: a new release is current; `unchanged`: the origin's current release is already
 * current here; `absent`: the origin publishes no release of the dataset; `failed`: see `reason`
 * (the release serving stays).
 */
export type SyncStatus = "synced" | "unchanged" | "absent" | "failed";

export interface SyncSummary {
  dataset: DatasetName;
  status: SyncStatus;
  /** The release current here after the pass. */
  release: string | undefined;
  previousRelease: string | undefined;
  reason?: string;
  /** Files of the release and their bytes. */
  files: number;
  bytes: number;
  /** Files already assembled by a run that was killed. */
  kept: number;
  /** Files hard-linked from a local release holding the same SHA-256 (copied across file systems). */
  linked: number;
  copied: number;
  /** Files read from the origin. */
  downloaded: number;
  /** Of those, files continued from bytes already held (Range). */
  resumed: number;
  bytesLinked: number;
  bytesCopied: number;
  bytesDownloaded: number;
  /** Bytes received from the origin, every attempt included. */
  bytesFetched: number;
  durationS: number;
  /** Releases deleted to keep GEODATA_KEEP_RELEASES. */
  pruned: string[];
}

export function summaryLine(s: SyncSummary): string {
  return JSON.stringify({ time: new Date().toISOString(), msg: "sync dataset", ...s });
}

/** 1 when a dataset failed, or when a dataset asked for by name is not published; else 0. */
export function exitCodeOf(summaries: readonly SyncSummary[], asked: readonly DatasetName[] | undefined): 0 | 1 {
  return summaries.some((s) => s.status === "failed" || (s.status === "absent" && asked?.includes(s.dataset))) ? 1 : 0;
}
