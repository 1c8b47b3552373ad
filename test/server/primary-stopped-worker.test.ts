/**
 * No connection is left unanswered when a worker stops (server/primary.ts, docs/http.md
 * "Processes"). Two workers; one is stopped with SIGSTOP (its event loop, its accepts and its
 * heartbeat all stop) while requests go on: on keep-alive connections it already held, on new
 * connections one after another, and on new connections in concurrent bursts. Every request must
 * get an answer or see its connection closed within the request timeout (short here, through the
 * configuration); requests on new connections are all answered, by the other worker.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../helpers/until.ts";
import { childPids, holderOf, scratchCluster, type ScratchCluster } from "./primary-cluster.ts";

const HEARTBEAT_TIMEOUT_MS = 2000;
const REQUEST_TIMEOUT_MS = 5000;
/** How long requests keep coming after the stop: past the kill and the replacement's start. */
const LOAD_MS = HEARTBEAT_TIMEOUT_MS + 3000;

type Outcome = { kind: "answered"; status: number } | { kind: "closed" } | { kind: "unanswered" };

const REQUEST = (close: boolean): string => `GET /health/live HTTP/1.1\r\nHost: test\r\n${close ? "Connection: close\r\n" : ""}\r\n`;

/** Writes one request on `socket` and waits for its whole answer, the connection's end, or the deadline. */
function ask(socket: net.Socket, close: boolean, deadlineMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    const done = (outcome: Outcome): void => {
      clearTimeout(timer);
      socket.off("data", onData);
      socket.off("close", onClose);
      socket.off("error", onClose);
      resolve(outcome);
    };
    const onData = (d: Buffer): void => {
      received = Buffer.concat([received, d]);
      const head = received.indexOf("\r\n\r\n");
      if (head < 0) return;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(received.subarray(0, head).toString("latin1"))?.[1] ?? 0);
      if (received.byteLength >= head + 4 + length) done({ kind: "answered", status: Number(received.subarray(9, 12).toString("latin1")) });
    };
    const onClose = (): void => done({ kind: "closed" });
    const timer = setTimeout(() => done({ kind: "unanswered" }), deadlineMs);
    socket.on("data", onData);
    socket.once("close", onClose);
    socket.once("error", onClose);
    socket.write(REQUEST(close));
  });
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** A request on a new connection that asks to close it after the answer. */
async function askFresh(port: number): Promise<Outcome> {
  const socket = await connect(port);
  try {
    return await ask(socket, true, REQUEST_TIMEOUT_MS);
  } finally {
    socket.destroy();
  }
}

let cluster: ScratchCluster;

beforeAll(async () => {
  cluster = await scratchCluster("stopped", {
    GEODATA_HEARTBEAT_TIMEOUT_MS: String(HEARTBEAT_TIMEOUT_MS),
    GEODATA_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    GEODATA_HEADERS_TIMEOUT_MS: "2000",
    // Longer than the test: the held connections stay open until the stop.
    GEODATA_KEEP_ALIVE_TIMEOUT_MS: "60000",
  });
  await until("all workers ready", () => cluster.lines().find((l) => l.msg === "all workers ready"), 60_000);
}, 90_000);

afterAll(async () => {
  const workers = childPids(cluster.primary.pid!);
  await cluster.close();
  for (const pid of workers) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone with the primary.
    }
  }
});

describe("cluster primary, a worker stopped with SIGSTOP", () => {
  it("leaves no request unanswered: each gets an answer or a closed connection within the request timeout", async () => {
    const ready = cluster.lines().find((l) => l.msg === "all workers ready")!;
    const port = Number(new URL(ready.url as string).port);
    const workers = childPids(cluster.primary.pid!);
    expect(workers).toHaveLength(2);

    // Keep-alive connections, each answered once, until the victim holds some.
    const held: net.Socket[] = [];
    let victim: number | undefined;
    for (let i = 0; i < 64 && (held.length < 8 || victim === undefined); i++) {
      const socket = await connect(port);
      expect(await ask(socket, false, REQUEST_TIMEOUT_MS)).toEqual({ kind: "answered", status: 200 });
      held.push(socket);
      victim ??= holderOf(port, socket.localPort!, workers);
    }
    expect(victim).toBeDefined();
    const victimHolds = held.filter((s) => holderOf(port, s.localPort!, workers) === victim).length;
    expect(victimHolds).toBeGreaterThan(0);

    process.kill(victim!, "SIGSTOP");
    try {
      const stoppedAt = performance.now();
      const onHeld = Promise.all(held.map((s) => ask(s, false, REQUEST_TIMEOUT_MS)));
      const sequential: Outcome[] = [];
      const bursts: Promise<Outcome[]>[] = [];
      let sent = 0;
      while (performance.now() - stoppedAt < LOAD_MS) {
        if (sent % 10 === 0) bursts.push(Promise.all(Array.from({ length: 8 }, () => askFresh(port))));
        sequential.push(await askFresh(port));
        sent++;
      }
      const heldOutcomes = await onHeld;
      const burstOutcomes = (await Promise.all(bursts)).flat();

      // The victim's connections end (killed by the heartbeat); the other's are answered.
      expect(heldOutcomes.filter((o) => o.kind === "unanswered")).toEqual([]);
      expect(heldOutcomes.filter((o) => o.kind === "closed").length).toBe(victimHolds);
      // New connections go to the worker that accepts: every one is answered.
      expect(sequential.length).toBeGreaterThan(20);
      expect(sequential.filter((o) => o.kind !== "answered")).toEqual([]);
      expect(burstOutcomes.filter((o) => o.kind !== "answered")).toEqual([]);
      await until("the stopped worker killed", () => cluster.lines().some((l) => l.msg === "worker unresponsive: killing it" && l.pid === victim));
    } finally {
      for (const s of held) s.destroy();
      try {
        process.kill(victim!, "SIGCONT");
      } catch {
        // Already killed.
      }
    }
    await until("a replacement worker", () => {
      const now = childPids(cluster.primary.pid!);
      return now.length === 2 && !now.includes(victim!);
    });
  }, 60_000);
});
