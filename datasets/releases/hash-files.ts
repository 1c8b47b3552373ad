/**
 * SHA-256 of whole files, computed in a child process: a release can hold gigabytes, and the
 * server checks a new release while it answers requests, so neither the reading nor the hashing
 * may run on the event loop. A child rather than a worker thread because a thread leaves its
 * memory behind: a server worker that hashed the embedded default's releases at start kept
 * 50-54 MiB of private memory against 33 when they were remembered, and each pass over them on a
 * thread left 5-7 MiB more (its V8 heap and malloc arena); a child gives all back when it exits.
 * Files are read in 4 MiB chunks (nothing is held whole). The checks remembered
 * (checked-files.ts, by device, inode, size, mtime and ctime) skip files hashed before, by this
 * process or another: a restart over unchanged files reads none of them, and a release that
 * hard-links the files of the previous one costs only its new files.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileVersion, type CheckedFiles } from "./checked-files.ts";

/** The child's code, an ES module given with -e (no file to find under tsx, vitest or dist/). */
const CHILD_SOURCE = `
import { openSync, readSync, closeSync } from "node:fs";
import { createHash } from "node:crypto";
const chunk = Buffer.allocUnsafe(4 * 1024 * 1024);
process.on("message", (file) => {
  let fd;
  try {
    fd = openSync(file, "r");
    const hash = createHash("sha256");
    for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) hash.update(chunk.subarray(0, n));
    process.send({ sha256: hash.digest("hex") });
  } catch (err) {
    process.send({ error: String(err && err.message || err), code: err && err.code });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
});
`;

/** A child that hashes the files sent to it; plain node (NODE_OPTIONS dropped: no loader of tests or benches). */
function startHasher(): ChildProcess {
  return spawn(process.execPath, ["--input-type=module", "-e", CHILD_SOURCE], {
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    env: { ...process.env, NODE_OPTIONS: "" },
  });
}

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
 * The SHA-256 (hex) of each file, in order, hashed one after the other in one child process.
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
  const hasher = startHasher();
  try {
    for (const { index, version } of todo) {
      const reply = await new Promise<Reply>((resolve, reject) => {
        const onError = (err: Error): void => done(() => reject(err));
        const onExit = (code: number | null, signal: string | null): void =>
          done(() => reject(new Error(`hashing ${files[index]}: expected a reply from the hashing process, got its exit (${signal ?? `code ${code}`})`)));
        const onMessage = (m: Reply): void => done(() => resolve(m));
        const done = (settle: () => void): void => {
          hasher.off("error", onError).off("exit", onExit).off("message", onMessage);
          settle();
        };
        hasher.on("error", onError).on("exit", onExit).on("message", onMessage);
        hasher.send(files[index]!);
      });
      if ("error" in reply) throw Object.assign(new Error(reply.error), { code: reply.code });
      out[index] = reply.sha256;
      // Remembered only if nothing wrote to it while it was read.
      if (version !== undefined && (await fileVersion(files[index]!)) === version) checked!.remember(version, reply.sha256, options.finalPath?.(index) ?? files[index]!);
      options.onHashed?.(index);
      options.onFile?.(index);
    }
  } finally {
    if (hasher.exitCode === null && hasher.signalCode === null) {
      const exited = new Promise((resolve) => hasher.once("exit", resolve));
      hasher.kill();
      await exited;
    }
  }
  return out;
}
