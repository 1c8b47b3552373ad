/**
 * node-server.ts on its own, with a stand-in app: graceful shutdown finishes in-flight requests,
 * and the header time limit closes a connection that never finishes its headers.
 */
import net from "node:net";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../../datasets/common/log.ts";
import type { App } from "../../../server/http/app.ts";
import { silentAccessLog } from "../../../server/http/access-log.ts";
import { startServer } from "../../../server/http/node-server.ts";

const options = { host: "127.0.0.1", port: 0, requestTimeoutMs: 5000, headersTimeoutMs: 400, shutdownGraceMs: 3000 };

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
