/**
 * node-server.ts on its own, with a stand-in app: graceful shutdown finishes in-flight requests,
 * the header time limit closes a connection that never finishes its headers, and a connection
 * whose client never reads is reset while a slow but steady reader is served, and an answer the
 * app gives without a promise (a cache hit, an error) is written at once, a synchronous throw as a 500.
 * Requests parsed in one turn of the event loop run the app each, then are written.
 */
import http from "node:http";
import net from "node:net";
import { describe, expect, it, vi } from "vitest";
import { createLogger, silentLogger } from "../../../datasets/common/log.ts";
import type { App } from "../../../server/http/app.ts";
import { silentAccessLog } from "../../../server/http/access-log.ts";
import { startServer, WRITE_AFTER_MS } from "../../../server/http/node-server.ts";
import { until } from "../../helpers/until.ts";

const options = { host: "127.0.0.1", port: 0, requestTimeoutMs: 5000, headersTimeoutMs: 400, shutdownGraceMs: 3000, keepAliveTimeoutMs: 5000 };

function slowApp(ms: number, onEnter: () => void = () => {}): App {
  return async (req) => {
    if (req.url === "/slow") onEnter();
    await new Promise((r) => setTimeout(r, ms));
    const body = Buffer.from('{"status":"OK","code":200,"content":{}}');
    return { status: 200, headers: { "Content-Type": "application/json; charset=utf-8", "Content-Length": String(body.byteLength) }, body, route: "/slow" };
  };
}

describe("graceful shutdown", () => {
  it("finishes a request in flight, then refuses new connections", async () => {
    let entered = (): void => {};
    const inApp = new Promise<void>((resolve) => (entered = resolve));
    const running = await startServer(slowApp(300, () => entered()), options, silentAccessLog, silentLogger);
    const url = `http://127.0.0.1:${running.port}/slow`;
    const inFlight = fetch(url);
    // Shut down once the request is in the app (a fixed sleep raced fetch's first-call set-up on a
    // loaded machine: the connection was then still idle and closed, which is right for idle ones).
    await inApp;
    const stopping = running.shutdown();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "OK", code: 200, content: {} });
    await stopping;
    await expect(fetch(url)).rejects.toThrow();
  });
});

describe("time limits", () => {
  it("answers 408 and closes when the headers never finish", async () => {
    const running = await startServer(slowApp(0), options, silentAccessLog, silentLogger);
    const reply = await new Promise<string>((resolve) => {
      const socket = net.connect(running.port, "127.0.0.1");
      let out = "";
      socket.on("data", (d) => (out += d.toString("latin1")));
      socket.on("close", () => resolve(out));
      socket.write("GET /slow HTTP/1.1\r\nHost: x\r\n");
    });
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    await running.shutdown();
  });
});

describe("clients that never read", () => {
  it("closes a connection whose answers make no progress for the request time limit", async () => {
    const big = Buffer.alloc(256 * 1024, 0x20);
    const app: App = async () => ({ status: 200, headers: { "Content-Type": "text/plain", "Content-Length": String(big.byteLength) }, body: big, route: "/big" });
    const logged: string[] = [];
    const running = await startServer(app, { ...options, requestTimeoutMs: 600 }, silentAccessLog, createLogger({ sink: (l) => logged.push(l), minLevel: "warn" }));
    const socket = net.connect(running.port, "127.0.0.1");
    socket.on("error", () => {});
    await new Promise((resolve) => socket.once("connect", resolve));
    // Never read: 24 answers of 256 KiB (6 MiB) outgrow the kernel's buffers on both ends.
    socket.pause();
    socket.write("GET /big HTTP/1.1\r\nHost: x\r\n\r\n".repeat(24));
    await until("the connection that reads nothing closed", () => running.connections === 0, 10_000);
    expect(logged.some((l) => l.includes("reset a connection that reads no answers"))).toBe(true);
    socket.destroy();
    await running.shutdown();
  });

  it("keeps a connection whose client reads slowly but steadily", async () => {
    const body = Buffer.alloc(64 * 1024, 0x20);
    const app: App = async () => ({ status: 200, headers: { "Content-Type": "text/plain", "Content-Length": String(body.byteLength) }, body, route: "/b" });
    const running = await startServer(app, { ...options, requestTimeoutMs: 600 }, silentAccessLog, silentLogger);
    const socket = net.connect(running.port, "127.0.0.1");
    let received = 0;
    socket.on("data", (d) => {
      received += d.byteLength;
      // Read in bursts with pauses shorter than the limit.
      socket.pause();
      setTimeout(() => socket.resume(), 20);
    });
    socket.write("GET /b HTTP/1.1\r\nHost: x\r\n\r\n".repeat(30));
    await until("30 answers read", () => received >= 30 * body.byteLength, 20_000);
    expect(received).toBeGreaterThan(30 * body.byteLength);
    socket.destroy();
    await running.shutdown();
  });
});

/** A 200 whose content is the request's target. */
function answerOf(url: string): ReturnType<App> {
  const body = Buffer.from(`{"status":"OK","code":200,"content":${JSON.stringify(url)}}`);
  return { status: 200, headers: { "Content-Type": "application/json; charset=utf-8", "Content-Length": String(body.byteLength) }, body, route: "/sync" };
}

/** Sends GETs of `paths` in one packet and returns the raw reply, once every answer (a 200 each) came. */
function inOnePacket(port: number, paths: readonly string[]): Promise<string> {
  return new Promise<string>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let out = "";
    socket.on("data", (d) => {
      out += d.toString("latin1");
      if ((out.match(/HTTP\/1\.1 200/g) ?? []).length === paths.length) socket.end();
    });
    socket.on("close", () => resolve(out));
    socket.write(paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: x\r\n\r\n`).join(""));
  });
}

/** The contents of a reply's answers, in order. */
const contentsOf = (reply: string): string[] => [...reply.matchAll(/"content":"([^"]*)"/g)].map((m) => m[1]!);

describe("answers the app gives without a promise", () => {
  it("writes a synchronous answer, pipelined answers in order, and a synchronous throw as a 500 with the error body", async () => {
    const app: App = (req) => {
      if (req.url === "/throw") throw new Error("a bug in a layer");
      return answerOf(req.url);
    };
    const errorsLogged: string[] = [];
    const running = await startServer(app, options, silentAccessLog, createLogger({ sink: (l) => errorsLogged.push(l), minLevel: "error" }));
    const base = `http://127.0.0.1:${running.port}`;
    expect(await (await fetch(`${base}/a`)).json()).toEqual({ status: "OK", code: 200, content: "/a" });
    const failed = await fetch(`${base}/throw`);
    expect(failed.status).toBe(500);
    expect(((await failed.json()) as { status: string; code: number }).code).toBe(500);
    expect(errorsLogged.some((l) => l.includes("request failed outside the app"))).toBe(true);
    // Three requests in one packet: three answers, in the order asked.
    expect(contentsOf(await inOnePacket(running.port, ["/p1", "/p2", "/p3"]))).toEqual(["/p1", "/p2", "/p3"]);
    await running.shutdown();
  });
});

describe("requests parsed in one turn", () => {
  /** The events of three requests sent in one packet: each app call, and each answer's writeHead. */
  async function eventsOfOnePacket(app: App, events: string[], batchWriteAfterMs: number): Promise<void> {
    const writeHead = http.ServerResponse.prototype.writeHead;
    const spy = vi.spyOn(http.ServerResponse.prototype, "writeHead").mockImplementation(function (this: http.ServerResponse, ...args: Parameters<typeof writeHead>) {
      events.push("write");
      return writeHead.apply(this, args);
    });
    const running = await startServer(app, { ...options, batchWriteAfterMs }, silentAccessLog, silentLogger);
    try {
      // Node parses the requests of one packet in one turn.
      expect(contentsOf(await inOnePacket(running.port, ["/q1", "/q2", "/q3"]))).toEqual(["/q1", "/q2", "/q3"]);
    } finally {
      spy.mockRestore();
      await running.shutdown();
    }
  }

  it("runs the app for each before writing any answer, and writes them in the order asked", async () => {
    const events: string[] = [];
    // A bound no batch of three reaches, even on a loaded machine that pauses the process.
    await eventsOfOnePacket((req) => {
      events.push(`app ${req.url}`);
      return answerOf(req.url);
    }, events, 60_000);
    expect(events).toEqual(["app /q1", "app /q2", "app /q3", "write", "write", "write"]);
  });

  it(`writes the answers computed so far once the batch has run for ${WRITE_AFTER_MS} ms`, async () => {
    const events: string[] = [];
    await eventsOfOnePacket((req) => {
      events.push(`app ${req.url}`);
      // A costly answer: three times the bound.
      if (req.url === "/q1") for (const end = performance.now() + 3 * WRITE_AFTER_MS; performance.now() < end; );
      return answerOf(req.url);
    }, events, WRITE_AFTER_MS);
    // /q1's answer goes out before /q2's app runs; a pause of the process may add further writes
    // between the other two, but never reorders the apps or loses an answer.
    expect(events.indexOf("write")).toBe(1);
    expect(events.filter((e) => e.startsWith("app "))).toEqual(["app /q1", "app /q2", "app /q3"]);
    expect(events.filter((e) => e === "write")).toHaveLength(3);
  });
});

describe("bodies", () => {
  it("sends every byte of a body unchanged, small (head and body in one write) and large, multi-byte text included", async () => {
    // Real names of GeoNames places (UTF-8 of 1 to 4 bytes a character) and real reports.
    const names = ["Zürich", "Москва", "東京", "Ḩalab", "Şanlıurfa", "𠮷野家"];
    const metar = "KJFK 231751Z 31012KT 10SM FEW250 08/M09 A3021 RMK AO2 SLP230 T00831089 10094 20033 58012";
    const bodies = [Buffer.alloc(0), Buffer.from(JSON.stringify({ names }), "utf8"), Buffer.from(JSON.stringify({ names, metar: Array(200).fill(metar) }), "utf8")];
    expect(bodies[2]!.byteLength).toBeGreaterThan(16 * 1024);
    // Bytes that are not valid UTF-8 at all go through unchanged too.
    bodies.push(Buffer.from(Array.from({ length: 256 }, (_, i) => i)));
    const app: App = (req) => {
      const body = bodies[Number(req.url.slice(1))]!;
      return { status: 200, headers: { "Content-Type": "application/json; charset=utf-8", "Content-Length": String(body.byteLength) }, body, route: "/b" };
    };
    const running = await startServer(app, options, silentAccessLog, silentLogger);
    try {
      for (let i = 0; i < bodies.length; i++) {
        const res = await fetch(`http://127.0.0.1:${running.port}/${i}`);
        const got = Buffer.from(await res.arrayBuffer());
        expect(res.headers.get("content-length")).toBe(String(bodies[i]!.byteLength));
        expect(got.equals(bodies[i]!)).toBe(true);
      }
    } finally {
      await running.shutdown();
    }
  });
});
