/**
 * SHA-256 of whole files, computed on a worker thread: a release can hold gigabytes, and the
 * server checks a new release while it answers requests, so neither the reading nor the hashing
 * may run on the event loop. Files are read in 4 MiB chunks (nothing is held whole). The checks
 * remembered (checked-files.ts, by device, inode, size, mtime and ctime) skip files hashed before,
 * by this process or another: a restart over unchanged files reads none of them, and a release
 * that hard-links the files of the previous one costs only its new files.
 */
import { Worker } from "node:worker_threads";
import { fileVersion, type CheckedFiles } from "./checked-files.ts";

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

export type HashOptions = {
  /**
   * The checks remembered: a file whose version is remembered is not read; one hashed is
   * remembered when its version did not change while it was read.
   */
  checked?: CheckedFiles;
  /** Where each file will be once in place (an assembly renamed to its release), for the memory; default where it is. */
  finalPath?: (index: number) => string;
  onFile?: (index: number) => void;
  /** Called for each file actually read and hashed (not remembered). */
  onHashed?: (index: number) => void;
};

/**
 * The SHA-256 (hex) of each file, in order, hashed one after the other on one worker thread.
 * `onFile` is called after each (for progress). Rejects with the file system's error (ENOENT...).
 */
export async function sha256Files(files: readonly string[], options: HashOptions = {}): Promise<string[]> {
  const { checked } = options;
  const out: string[] = new Array<string>(files.length);
  const todo: Array<{ index: number; version: string | undefined }> = [];
  for (const [index, file] of files.entries()) {
    const version = checked ? await fileVersion(file) : undefined;
    const known = version !== undefined ? checked!.sha256Of(version) : undefined;
    if (known !== undefined) {
      out[index] = known;
      options.onFile?.(index);
    } else todo.push({ index, version });
  }
  if (todo.length === 0) return out;
  const worker = new Worker(WORKER_URL);
  try {
    for (const { index, version } of todo) {
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
      // Remembered only if nothing wrote to it while it was read.
      if (version !== undefined && (await fileVersion(files[index]!)) === version) checked!.remember(version, reply.sha256, options.finalPath?.(index) ?? files[index]!);
      options.onHashed?.(index);
      options.onFile?.(index);
    }
  } finally {
    await worker.terminate();
  }
  return out;
}
