/**
 * What node:http leaves unbounded on one connection, bounded here:
 *
 * - Pipelining: a client may send many requests before reading any answer; node parses a whole
 *   read (up to 64 KiB, about 1,600 small requests) before it pauses. The request that finds
 *   MAX_PIPELINED_REQUESTS answers still unsent on its connection is refused (429, the
 *   connection closed after it) and the app never sees the requests after it.
 * - Clients that never read: once the kernel's buffers are full, node stops reading and keeps the
 *   queued answers; with no request in progress, none of node's time limits applies and the
 *   socket stays open for ever. A connection whose answers make no progress (no answer finishes
 *   and no buffered write drains) for `stallMs` is reset (RST), not closed: a close leaves the
 *   kernel an orphan socket that keeps trying to deliver the unread data and its FIN to a zero
 *   window, holding its buffers (about 4 MB each on loopback) for minutes; a reset frees them.
 * - A connection that will close: once an answer said `Connection: close`, requests already
 *   parsed behind it are dropped unrun (node would drop their answers), and a parse error behind
 *   it writes no second answer. A parse error behind answers still going out waits for them.
 */
import type { Socket } from "node:net";

/** Answers that may wait unsent on one connection (docs/http.md "Request limits"). */
export const MAX_PIPELINED_REQUESTS = 32;

interface ConnectionState {
  /** Requests received whose answer has not yet finished (handed to the kernel) or been dropped. */
  pending: number;
  /** Answers given to node and not yet finished. */
  unflushed: number;
  /** When an answer last finished, or the socket's buffer last drained (performance.now()). */
  lastProgressAt: number;
  /** An answer with `Connection: close` was given: nothing more is answered on this socket. */
  closing: boolean;
  /** Runs once every admitted request is settled (closeAfterPending). */
  afterPending?: () => void;
}

export interface ConnectionGuard {
  /** Tracks a new connection. */
  track(socket: Socket): void;
  /**
   * A request arrived: `run` when it may go to the app, `refuse` when it is one too many pipelined
   * (answer it with 429 and close), `drop` when its connection is closing. `closes`: its answer
   * will end the connection (nothing after it is admitted).
   */
  admit(socket: Socket, closes: boolean): "run" | "refuse" | "drop";
  /** The answer to an admitted request is handed to node; `close` if it ends the connection. */
  answered(socket: Socket, close: boolean): void;
  /** The answer of an admitted request finished or was abandoned (once per request). */
  settled(socket: Socket, wasAnswered: boolean): void;
  /**
   * The connection ends (a parse error, a time limit): nothing more is admitted, and `last` runs
   * once the answers already admitted have gone out, unless an earlier answer already said
   * `Connection: close` (node ends the socket after it; nothing may follow it).
   */
  closeAfterPending(socket: Socket, last: () => void): void;
  /**
   * The server is closing: resets every connection with answer bytes still unsent. node's
   * `server.close()` ends a connection whose last answer is written, however much of it is still
   * queued, and a graceful end would leave those bytes to an orphan socket (a stalled reader's).
   */
  resetUnsent(): void;
  /** Stops the sweep (server closing). */
  stop(): void;
}

export function connectionGuard(stallMs: number, onStall: (socket: Socket) => void): ConnectionGuard {
  const states = new Map<Socket, ConnectionState>();
  let sweep: NodeJS.Timeout | undefined;

  function startSweep(): void {
    if (sweep) return;
    // A coarse check is enough: a stall is measured in seconds. Runs only while connections are open.
    sweep = setInterval(() => {
      const now = performance.now();
      for (const [socket, s] of states) {
        const waiting = s.unflushed > 0 || socket.writableLength > 0;
        if (waiting && now - s.lastProgressAt > stallMs) {
          states.delete(socket);
          onStall(socket);
          socket.resetAndDestroy();
        }
      }
    }, Math.max(50, Math.min(1000, Math.floor(stallMs / 4))));
    sweep.unref();
  }

  return {
    track(socket) {
      const state: ConnectionState = { pending: 0, unflushed: 0, lastProgressAt: performance.now(), closing: false };
      states.set(socket, state);
      socket.on("drain", () => (state.lastProgressAt = performance.now()));
      socket.once("close", () => {
        states.delete(socket);
        if (states.size === 0 && sweep) {
          clearInterval(sweep);
          sweep = undefined;
        }
      });
      startSweep();
    },
    admit(socket, closes) {
      const s = states.get(socket);
      if (s === undefined || s.closing) return "drop";
      s.pending++;
      if (s.pending > MAX_PIPELINED_REQUESTS) {
        s.closing = true;
        return "refuse";
      }
      if (closes) s.closing = true;
      return "run";
    },
    answered(socket, close) {
      const s = states.get(socket);
      if (s === undefined) return;
      if (s.unflushed === 0) s.lastProgressAt = performance.now();
      s.unflushed++;
      if (close) s.closing = true;
    },
    settled(socket, wasAnswered) {
      const s = states.get(socket);
      if (s === undefined) return;
      s.pending--;
      if (wasAnswered) s.unflushed--;
      s.lastProgressAt = performance.now();
      if (s.pending === 0 && s.afterPending) {
        const last = s.afterPending;
        s.afterPending = undefined;
        last();
      }
    },
    closeAfterPending(socket, last) {
      const s = states.get(socket);
      if (s === undefined) return last();
      if (s.closing) return;
      s.closing = true;
      if (s.pending === 0) last();
      else s.afterPending = last;
    },
    resetUnsent() {
      for (const [socket, s] of states) {
        if (s.unflushed > 0 || socket.writableLength > 0) socket.resetAndDestroy();
      }
    },
    stop() {
      clearInterval(sweep);
      sweep = undefined;
    },
  };
}
