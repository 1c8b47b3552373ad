/**
 * A few hundred clients that send a request and never read its answer (docs/http.md "Request
 * limits"): each stalled connection holds about 4 MB of kernel buffers on loopback (the server's
 * send queue and the client's receive queue). The server resets them after the request time limit
 * (connection-guard.ts), and the kernel's TCP memory (/proc/net/sockstat, in pages) returns to
 * about its baseline with no orphan sockets left, while the clients still hold their sockets open.
 * A graceful close instead left every one as an orphan holding its buffers. The same when the
 * server shuts down before their time limit.
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
import { startServer, type RunningServer } from "../../../server/http/node-server.ts";
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

const bigApp: App = async () => ({ status: 200, headers: { "Content-Type": "text/plain", "Content-Length": String(BODY.byteLength) }, body: BODY, route: "/big" });

const serve = (requestTimeoutMs: number): Promise<RunningServer> =>
  startServer(bigApp, { host: "127.0.0.1", port: 0, requestTimeoutMs, headersTimeoutMs: STALL_MS, shutdownGraceMs: 500, keepAliveTimeoutMs: 5000 }, silentAccessLog, silentLogger);

/** `count` clients that never read; a reset's error is expected, and each stays open on this side. */
async function stallClients(port: number, count: number): Promise<net.Socket[]> {
  const clients: net.Socket[] = [];
  for (let i = 0; i < count; i++) {
    const socket = await stalledClient(port);
    socket.on("error", () => {});
    clients.push(socket);
  }
  return clients;
}

/** TCP's figures once the memory is back within `bound` pages of `before` (or as they are after a few seconds). */
function settled(before: TcpStat, bound: number): Promise<TcpStat> {
  // The kernel frees a reset socket's buffers at once; give it a moment to settle.
  return until("TCP memory back near its baseline", () => {
    const now = tcpStat();
    return now.mem - before.mem < bound ? now : undefined;
  }, 3000).catch(() => tcpStat());
}

describe.skipIf(!existsSync(SOCKSTAT))("clients that never read", () => {
  it("a few hundred are reset after the request time limit and the kernel's TCP memory returns to its baseline", async () => {
    const running = await serve(STALL_MS);
    const clients: net.Socket[] = [];
    try {
      const before = tcpStat();
      let peak = before.mem;
      const sampler = setInterval(() => (peak = Math.max(peak, tcpStat().mem)), 50);
      try {
        clients.push(...(await stallClients(running.port, CLIENTS)));
        await until("every stalled connection reset by the server", () => running.connections === 0, 20_000 + STALL_MS);
      } finally {
        clearInterval(sampler);
      }
      const after = await settled(before, CLIENTS * LEFT_PER_CLIENT);

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

  it("are reset when the server shuts down before their time limit", async () => {
    const count = 20;
    const running = await serve(60_000);
    const serverSide: net.Socket[] = [];
    running.server.on("connection", (s: net.Socket) => serverSide.push(s));
    const clients: net.Socket[] = [];
    try {
      const before = tcpStat();
      clients.push(...(await stallClients(running.port, count)));
      await until("every answer stalled in node's buffer", () => serverSide.length === count && serverSide.every((s) => s.writableLength > 0));
      await running.shutdown();
      const after = await settled(before, count * LEFT_PER_CLIENT);
      expect(after.orphan - before.orphan).toBeLessThan(count / 4);
      expect(after.mem - before.mem).toBeLessThan(count * LEFT_PER_CLIENT);
    } finally {
      for (const c of clients) c.destroy();
    }
  }, 60_000);
});
