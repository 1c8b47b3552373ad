/**
 * The primary's watch over its cluster workers' event loops (server/primary.ts sends, a worker
 * answers from server/main.ts): every HEARTBEAT_INTERVAL_MS the primary asks each serving worker
 * for a beat; a worker whose loop is blocked (a request stuck in a loop, a runaway computation)
 * cannot answer, and once it has not answered for GEODATA_HEARTBEAT_TIMEOUT_MS the primary kills
 * it (SIGKILL: a blocked loop handles no SIGTERM) and forks a replacement, while the other workers
 * keep taking connections.
 */

export const HEARTBEAT_INTERVAL_MS = 1000;

export interface HeartbeatMessage {
  geodataHeartbeat: number;
}

export function isHeartbeat(m: unknown): m is HeartbeatMessage {
  return typeof m === "object" && m !== null && typeof (m as HeartbeatMessage).geodataHeartbeat === "number";
}

/** A worker's side: answers every beat, from its event loop. */
export function answerHeartbeats(): void {
  process.on("message", (m: unknown) => {
    if (isHeartbeat(m) && process.connected) process.send?.(m);
  });
}

/** The primary's side: which watched workers have not answered for `timeoutMs`. */
export class HeartbeatWatch {
  private readonly lastAnswer = new Map<number, number>();

  constructor(private readonly timeoutMs: number) {}

  /** Starts watching a worker (once it serves: loading datasets may block its loop for longer). */
  watch(id: number, now: number): void {
    this.lastAnswer.set(id, now);
  }

  answered(id: number, now: number): void {
    if (this.lastAnswer.has(id)) this.lastAnswer.set(id, now);
  }

  forget(id: number): void {
    this.lastAnswer.delete(id);
  }

  watched(): number[] {
    return [...this.lastAnswer.keys()];
  }

  /** The watched workers silent for longer than the timeout; they are forgotten (killed once). */
  unresponsive(now: number): { id: number; silentMs: number }[] {
    const out: { id: number; silentMs: number }[] = [];
    for (const [id, at] of this.lastAnswer) {
      if (now - at > this.timeoutMs) {
        out.push({ id, silentMs: Math.round(now - at) });
        this.lastAnswer.delete(id);
      }
    }
    return out;
  }
}
