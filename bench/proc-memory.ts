/**
 * Memory and CPU time of a process tree on Linux, read from /proc: RSS (resident pages, shared ones counted in
 * every process that maps them) and PSS (shared pages divided among the processes sharing them,
 * so the PSS of a tree adds up to what the tree really costs). Elsewhere: empty.
 */
import { readFileSync } from "node:fs";

export interface ProcMemory {
  pid: number;
  command: string;
  rssMiB: number;
  pssMiB: number;
  /** Pages only this process maps (Private_Clean + Private_Dirty): what it holds that no other process shares. */
  privateMiB: number;
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const tid of (read(`/proc/${pid}/task/${pid}/children`) ?? "").split(/\s+/)) if (tid) out.push(Number(tid));
  return out;
}

function kib(text: string, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text);
  return m ? Number(m[1]) : 0;
}

/** Pages only this process maps (Private_Clean + Private_Dirty), MiB; 0 where /proc has none. */
export function privateMiB(pid: number | "self" = "self"): number {
  const rollup = read(`/proc/${pid}/smaps_rollup`) ?? "";
  return (kib(rollup, "Private_Clean") + kib(rollup, "Private_Dirty")) / 1024;
}

/** The process and all its descendants, depth first. */
export function processTree(root: number): ProcMemory[] {
  const out: ProcMemory[] = [];
  const visit = (pid: number): void => {
    const rollup = read(`/proc/${pid}/smaps_rollup`);
    const cmdline = (read(`/proc/${pid}/cmdline`) ?? "").split("\0").filter(Boolean);
    if (rollup) {
      out.push({
        pid,
        command: cmdline.map((a) => a.replace(/^.*[\\/](node_modules|dist|server|pipeline|bench)[\\/]/, "$1/")).join(" ").slice(0, 80),
        rssMiB: kib(rollup, "Rss") / 1024,
        pssMiB: kib(rollup, "Pss") / 1024,
        privateMiB: privateMiB(pid),
      });
    }
    for (const c of childrenOf(pid)) visit(c);
  };
  visit(root);
  return out;
}

/** CPU time (user + system) used so far by the process and its descendants, in milliseconds. */
export function treeCpuMs(root: number): number {
  const ticksPerSecond = 100; // USER_HZ: 100 on every Linux kernel ABI
  let ticks = 0;
  const visit = (pid: number): void => {
    const stat = read(`/proc/${pid}/stat`);
    if (stat) {
      // Fields after the command (which may hold spaces) start after the last ")".
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    }
    for (const c of childrenOf(pid)) visit(c);
  };
  visit(root);
  return (ticks * 1000) / ticksPerSecond;
}
