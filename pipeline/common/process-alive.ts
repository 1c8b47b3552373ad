/**
 * Whether a process of this host is still there, for the files a build names by its process id (a
 * dataset's lock, a temporary run file): signal 0 only checks. EPERM means the process exists but
 * belongs to another user. Ids of 0 and below name process groups, never one process: not alive.
 */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
