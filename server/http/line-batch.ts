/**
 * Lines written in batches: one write per event-loop turn (or whenever 64 KiB are waiting)
 * instead of one write, and so one system call, per line. Used for the access stream, which
 * writes a line per request. What is waiting is written when the turn ends and at process exit.
 */
export interface LineBatch {
  push(line: string): void;
  /** Writes what is waiting now. */
  flush(): void;
}

export function lineBatch(write: (chunk: string) => void, maxChars = 64 * 1024): LineBatch {
  let pending = "";
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (pending.length === 0) return;
    const chunk = pending;
    pending = "";
    write(chunk);
  };
  return {
    push(line) {
      pending += line + "\n";
      if (pending.length >= maxChars) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
