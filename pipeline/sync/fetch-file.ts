/**
 * Fetches one file of a release into the release being assembled: written to `<file>.part`, each
 * chunk on disk before the next is read and hashed as it arrives, so that a dropped connection is
 * resumed with Range from the last byte held (a `.part` left by a killed run too: its bytes are
 * hashed first); then its size and SHA-256 are checked against release.json and it is renamed to
 * its name. A file of another size or checksum is refused (ReleaseFileError, not retried), and its
 * `.part` removed so the next run starts it over.
 */
import { createHash, type Hash } from "node:crypto";
import { createReadStream, promises as fs } from "node:fs";
import path from "node:path";
import type { Logger } from "../../datasets/common/log.ts";
import type { ReleaseFile } from "../../datasets/releases/manifest.ts";
import { ReleaseFileError } from "../../datasets/releases/release-file-error.ts";
import { HttpFetchError, withRetries } from "../common/http-fetch.ts";
import { Progress } from "../common/progress.ts";
import type { Origin } from "./origin.ts";

/** Files from this size on report their progress (one line at most every 2 s). */
const PROGRESS_FROM_BYTES = 16 * 1024 * 1024;

export type FetchFileOptions = {
  logger: Logger;
  /** The file as messages show it (relative to the receiving data directory). */
  shown: string;
  attempts?: number;
  backoffMs?: number;
  signal?: AbortSignal;
};

export interface FetchedFile {
  /** Bytes received, every attempt included. */
  bytesFetched: number;
  /** Whether the origin continued bytes held from before (an earlier attempt or a killed run), not sent the whole file again. */
  resumed: boolean;
}

async function hashOf(file: string, hash: Hash): Promise<void> {
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
}

/** Fetches `relPath` (relative to the origin's data directory) to `target`, which must hold `expected`. */
export async function fetchFile(origin: Origin, relPath: string, expected: ReleaseFile, target: string, o: FetchFileOptions): Promise<FetchedFile> {
  const url = origin.where(relPath);
  const part = `${target}.part`;
  await fs.mkdir(path.dirname(target), { recursive: true });
  let held = (await fs.stat(part).catch(() => undefined))?.size ?? 0;
  if (held > expected.size) {
    await fs.rm(part, { force: true });
    held = 0;
  }
  let hash = createHash("sha256");
  if (held > 0) await hashOf(part, hash);
  // A resume is counted only when the origin continued the partial file (a 206 from `held`).
  const result: FetchedFile = { bytesFetched: 0, resumed: false };
  const progress = expected.size >= PROGRESS_FROM_BYTES ? new Progress(o.logger, `sync ${o.shown}`, expected.size, "bytes") : undefined;
  await withRetries(url, { logger: o.logger, isFinal: (err) => err instanceof ReleaseFileError || o.signal?.aborted === true, ...(o.attempts !== undefined ? { attempts: o.attempts } : {}), ...(o.backoffMs !== undefined ? { backoffMs: o.backoffMs } : {}) }, "sync", async () => {
    if (held === expected.size) return;
    const stream = await origin.openBytes(relPath, held, o.signal);
    if (!stream) throw new ReleaseFileError(o.shown, url, "missing", `a file of ${expected.size} bytes`, "nothing (not found)");
    if (stream.total !== undefined && stream.total !== expected.size) {
      throw new ReleaseFileError(o.shown, url, "size", `${expected.size} bytes`, `${stream.total} bytes`);
    }
    if (stream.start === 0 && held > 0) {
      // The origin ignored Range and sent the whole file: start over (not a resume).
      held = 0;
      hash = createHash("sha256");
      result.resumed = false;
    } else if (held > 0) {
      result.resumed = true;
    }
    const handle = await fs.open(part, held > 0 ? "a" : "w");
    try {
      for await (const chunk of stream.body) {
        if (held + chunk.byteLength > expected.size) throw new ReleaseFileError(o.shown, url, "size", `${expected.size} bytes`, `more than ${expected.size} bytes`);
        await handle.write(chunk);
        hash.update(chunk);
        held += chunk.byteLength;
        result.bytesFetched += chunk.byteLength;
        progress?.set(held);
      }
    } finally {
      await handle.close();
    }
    // The connection ended early: retried from the byte reached (no status: always retriable).
    if (held < expected.size) throw new HttpFetchError(url, undefined, `expected ${expected.size} bytes, got ${held} (connection dropped)`);
  });
  const sha256 = hash.digest("hex");
  if (sha256 !== expected.sha256) {
    await fs.rm(part, { force: true });
    throw new ReleaseFileError(o.shown, url, "sha256", `SHA-256 ${expected.sha256}`, sha256);
  }
  await fs.rename(part, target);
  progress?.finish({ resumed: result.resumed });
  return result;
}
