/**
 * The cluster primary for tests: `npm start`'s primary from the sources (tsx as node's loader) with
 * two workers on port 0 of the loopback, its workers' pids, and which process holds a connection.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { promises as fs, readdirSync, readFileSync, readlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PROJECT_ROOT } from "../../datasets/common/paths.ts";

/** `npm start`'s primary with two workers on port 0 (any free port), from the sources. */
export function startCluster(env: Record<string, string>, onStderr: (text: string) => void, onExit: (code: number | null) => void): ChildProcess {
  const all: NodeJS.ProcessEnv = { ...process.env, PORT: "0", HOST: "127.0.0.1", GEODATA_WORKERS: "2", GEODATA_LOG_LEVEL: "info", GEODATA_RELEASE_POLL_MS: "0", GEODATA_SHUTDOWN_GRACE_MS: "1000", GEODATA_SHUTDOWN_DELAY_MS: "0" };
  delete all.GEODATA_API_KEYS;
  Object.assign(all, env);
  // tsx as a loader of this very process (not its CLI, which would add a parent process).
  const started = spawn(process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "server", "start.ts"), "--no-default-build"], { cwd: PROJECT_ROOT, env: all, stdio: ["ignore", "ignore", "pipe"] });
  started.stderr!.on("data", (d: Buffer) => onStderr(d.toString()));
  // "close", not "exit": the exit can arrive before the last of stderr has been read, and the
  // tests look for the primary's last line ("stopped").
  started.on("close", (code) => onExit(code));
  return started;
}

/** A cluster on a new, empty data directory (every dataset missing: its workers start in a moment). */
export interface ScratchCluster {
  primary: ChildProcess;
  stderr(): string;
  /** The JSON lines of its stderr so far. */
  lines(): Record<string, unknown>[];
  /** The primary's exit code; undefined while it runs. */
  exitCode(): number | null | undefined;
  /** Kills it if it still runs and removes its data directory. */
  close(): Promise<void>;
}

export async function scratchCluster(name: string, env: Record<string, string>): Promise<ScratchCluster> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `geodata-primary-${name}-`));
  let text = "";
  let code: number | null | undefined;
  const primary = startCluster({ GEODATA_DATA_DIR: dataDir, ...env }, (d) => (text += d), (c) => (code = c));
  return {
    primary,
    stderr: () => text,
    lines: () => jsonLines(text),
    exitCode: () => code,
    async close() {
      if (code === undefined) primary.kill("SIGKILL");
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The JSON lines of a process's stderr. */
export const jsonLines = (text: string): Record<string, unknown>[] =>
  text.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);

/** The child processes of `pid` (the workers of a primary). */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * Which of `pids` holds the server's end of the loopback connection from `clientPort` to
 * `serverPort`: the socket's inode from /proc/net/tcp, then the process whose fd names it.
 */
export function holderOf(serverPort: number, clientPort: number, pids: readonly number[]): number | undefined {
  const hex = (port: number): string => port.toString(16).toUpperCase().padStart(4, "0");
  // Columns: sl, local_address, rem_address, st, tx:rx, tr:when, retrnsmt, uid, timeout, inode.
  const row = readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .find((c) => c[1] === `0100007F:${hex(serverPort)}` && c[2] === `0100007F:${hex(clientPort)}`);
  if (row === undefined) return undefined;
  const link = `socket:[${row[9]}]`;
  for (const pid of pids) {
    try {
      const fds = readdirSync(`/proc/${pid}/fd`);
      if (fds.some((fd) => readlinkSafe(`/proc/${pid}/fd/${fd}`) === link)) return pid;
    } catch {
      // The process is gone.
    }
  }
  return undefined;
}

function readlinkSafe(p: string): string | undefined {
  try {
    return readlinkSync(p);
  } catch {
    return undefined;
  }
}
