/**
 * A few hundred clients that send a request and never read its answer (docs/http.md "Request
 * limits"): each stalled connection holds about 4 MB of kernel buffers on loopback (the server's
 * send queue and the client's receive queue). The server resets them after the request time limit
 * (connection-guard.ts), and the kernel's TCP memory (/proc/net/sockstat, in pages) returns to
 * about its baseline with no orphan sockets left, while the clients still hold their sockets open.
 * A graceful close instead left every one as an orphan holding its buffers.
 *
 * Bounded: 200 clients on loopback for a few seconds, about 800 MB of kernel memory at the peak
 * (below the host's TCP pressure threshold, tcp_mem's first value, on a machine with a few GB).
 */
import { existsSync, readFileSync } from "node:fs";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../../datasets/common/log.ts";
import type { App } from "../../../server/http/app.ts";
import { silentAccessLog } from "../../../server/http/access-log.ts";
import { startServer } from "../../../server/http/node-server.ts";
import { until } from "../../helpers/until.ts";

const CLIENTS = 200;
/** Larger than what the kernel buffers for one connection, so that every answer stalls. */
const BODY = Buffer.alloc(8 * 1024 * 1024, 0x20);
const STALL_MS = 1000;
const SOCKSTAT = "/proc/net/sockstat";
/**
 * Pages a client may still account for after the reset: its own receive queue (about 32 pages
 * measured, the initial window), which it holds until it closes its socket.
 */
const LEFT_PER_CLIENT = 64;

interface TcpStat {
  /** Pages of memory the kernel's TCP sockets hold (every network namespace). */
  mem: number;
  /** Sockets closed by their process that the kernel still keeps (this namespace). */
  orphan: number;
}

function tcpStat(): TcpStat {
  const line = /^TCP: (.*)$/m.exec(readFileSync(SOCKSTAT, "utf8"))?.[1] ?? "";
  const field = (name: string): number => Number(new RegExp(`\\b${name} (\\d+)`).exec(line)?.[1] ?? NaN);
  return { mem: field("mem"), orphan: field("orphan") };
}

/** A client that sends one request and never reads. */
function stalledClient(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.pause();
      socket.write("GET /big HTTP/1.1\r\nHost: x\r\n\r\n");
      resolve(socket);
    });
    socket.once("error", reject);
  });
}

describe.skipIf(!existsSync(SOCKSTAT))("a few hundred clients that never read", () => {
  it("are reset after the request time limit and the kernel's TCP memory returns to its baseline", async () => {
    const app: App = async () => ({ status: 200, headers: { "Content-Type": "text/plain", "Content-Length": String(BODY.byteLength) }, body: BODY, route: "/big" });
    const running = await startServer(app, { host: "127.0.0.1", port: 0, requestTimeoutMs: STALL_MS, headersTimeoutMs: STALL_MS, shutdownGraceMs: 1000, keepAliveTimeoutMs: 5000 }, silentAccessLog, silentLogger);
    const clients: net.Socket[] = [];
    try {
      const before = tcpStat();
      let peak = before.mem;
      const sampler = setInterval(() => (peak = Math.max(peak, tcpStat().mem)), 50);
      try {
        for (let i = 0; i < CLIENTS; i++) {
          const socket = await stalledClient(running.port);
          // Errors (the reset) are expected; the socket stays open on this side until the end.
          socket.on("error", () => {});
          clients.push(socket);
        }
        await until("every stalled connection reset by the server", () => running.connections === 0, 20_000 + STALL_MS);
      } finally {
        clearInterval(sampler);
      }
      // The kernel frees a reset socket's buffers at once; give it a moment to settle.
      const after = await until("TCP memory back near its baseline", () => {
        const now = tcpStat();
        return now.mem - before.mem < CLIENTS * LEFT_PER_CLIENT ? now : undefined;
      }, 3000).catch(() => tcpStat());

      // The test is real: the stalled clients held kernel memory (about 975 pages each when measured).
      expect(peak - before.mem).toBeGreaterThan(CLIENTS * 256);
      // Back to about the baseline (other processes of the host move it too), against about 4 MB a
      // client that a graceful close leaves to the orphans.
      expect(after.mem - before.mem).toBeLessThan(CLIENTS * LEFT_PER_CLIENT);
      expect(after.orphan - before.orphan).toBeLessThan(CLIENTS / 10);
    } finally {
      for (const c of clients) c.destroy();
      await running.shutdown();
    }
  }, 60_000);
});
