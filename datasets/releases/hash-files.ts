/**
 * SHA-256 of whole files, computed on a worker thread: a release can hold gigabytes, and the
 * server checks a new release while it answers requests, so neither the reading nor the hashing
 * may run on the event loop. Files are read in 4 MiB chunks (nothing is held whole). A cache keyed
 * by device, inode, size and modification time skips files already hashed by this process: a
 * release that hard-links the files of the previous one (forecast runs, synced files) costs only
 * its new files.
 */
import { promises as fs } from "node:fs";
import { Worker } from "node:worker_threads";

/** The worker's code, as an ES module in a data: URL (no file to find under tsx, vitest or dist/). */
const WORKER_SOURCE = `
import { parentPort } from "node:worker_threads";
import { openSync, readSync, closeSync } from "node:fs";
import { createHash } from "node:crypto";
const chunk = Buffer.allocUnsafe(4 * 1024 * 1024);
parentPort.on("message", (file) => {
  let fd;
  try {
    fd = openSync(file, "r");
    const hash = createHash("sha256");
    for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) hash.update(chunk.subarray(0, n));
    parentPort.postMessage({ sha256: hash.digest("hex") });
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message || err), code: err && err.code });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
});
`;

const WORKER_URL = new URL(`data:text/javascript,${encodeURIComponent(WORKER_SOURCE)}`);

type Reply = { sha256: string } | { error: string; code?: string };

/** What was hashed already, per file version (device, inode, size, mtime in ns). */
export class HashCache {
  private readonly known = new Map<string, string>();
  get(key: string): string | undefined {
    return this.known.get(key);
  }
  set(key: string, sha256: string): void {
    this.known.set(key, sha256);
  }
}

async function versionKey(file: string): Promise<string> {
  const s = await fs.stat(file, { bigint: true });
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`;
}

/**
 * The SHA-256 (hex) of each file, in order, hashed one after the other on one worker thread.
 * `onFile` is called after each (for progress). Rejects with the file system's error (ENOENT...).
 */
export async function sha256Files(files: readonly string[], options: { cache?: HashCache; onFile?: (index: number) => void } = {}): Promise<string[]> {
  const out: string[] = new Array<string>(files.length);
  const todo: Array<{ index: number; key: string | undefined }> = [];
  for (const [index, file] of files.entries()) {
    const key = options.cache ? await versionKey(file) : undefined;
    const known = key !== undefined ? options.cache!.get(key) : undefined;
    if (known !== undefined) {
      out[index] = known;
      options.onFile?.(index);
    } else todo.push({ index, key });
  }
  if (todo.length === 0) return out;
  const worker = new Worker(WORKER_URL);
  try {
    for (const { index, key } of todo) {
      const reply = await new Promise<Reply>((resolve, reject) => {
        const onError = (err: Error): void => reject(err);
        worker.once("error", onError);
        worker.once("message", (m: Reply) => {
          worker.off("error", onError);
          resolve(m);
        });
        worker.postMessage(files[index]);
      });
      if ("error" in reply) throw Object.assign(new Error(reply.error), { code: reply.code });
      out[index] = reply.sha256;
      if (key !== undefined) options.cache!.set(key, reply.sha256);
      options.onFile?.(index);
    }
  } finally {
    await worker.terminate();
  }
  return out;
}
