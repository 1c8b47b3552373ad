/**
 * The only file that touches node:http: adapts the pure app (app.ts) to sockets, sets the
 * header and request time limits, logs one line per request, and shuts down gracefully.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../../datasets/common/log.ts";
import { logAccess, type AccessLog } from "./access-log.ts";
import type { App, AppResponse } from "./app.ts";
import { errorBody } from "./respond.ts";

export interface ServerOptions {
  host: string;
  port: number;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  shutdownGraceMs: number;
}

export interface RunningServer {
  server: http.Server;
  port: number;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then closes. */
  shutdown(): Promise<void>;
  isShuttingDown(): boolean;
}

/** Largest request head (request line plus headers) node:http accepts; larger gets 431. */
const MAX_HEADER_BYTES = 16 * 1024;

export async function startServer(app: App, options: ServerOptions, accessLogger: AccessLog, logger: Logger): Promise<RunningServer> {
  let shuttingDown = false;
  let inFlight = 0;
  let drained: (() => void) | undefined;

  const server = http.createServer({
    maxHeaderSize: MAX_HEADER_BYTES,
    // How often node checks the header and request time limits (default 30 s, too coarse).
    connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(options.headersTimeoutMs / 2))),
  }, (req, res) => {
    const started = performance.now();
    inFlight++;
    const method = req.method ?? "GET";
    const url = req.url ?? "/";
    const contentLength = Number(req.headers["content-length"] ?? 0);
    const hasBody = (Number.isFinite(contentLength) && contentLength > 0) || req.headers["transfer-encoding"] !== undefined;
    const write = (out: AppResponse): void => {
      if (hasBody || shuttingDown) out.headers.Connection = "close";
      res.writeHead(out.status, out.headers);
      res.end(out.body);
      logAccess(accessLogger, { method, url, route: out.route, status: out.status, durationMs: performance.now() - started, bytes: out.body.byteLength, remote: req.socket.remoteAddress });
    };
    const failed = (err: unknown): void => {
      // app() never throws nor rejects; this is the last line of defence against a crash.
      logger.error("request failed outside the app", { err });
      if (!res.headersSent) {
        const body = errorBody(500, "Internal server error.");
        res.writeHead(500, { "Content-Type": "application/json; charset=utf-8", "Content-Length": String(body.byteLength) });
        res.end(body);
      } else {
        res.destroy();
      }
    };
    const done = (): void => {
      inFlight--;
      if (inFlight === 0 && drained) drained();
    };
    // Bodies are refused unread; drain nothing, close the connection after answering.
    let answer: AppResponse | Promise<AppResponse>;
    try {
      answer = app({ method, url, headers: req.headers, hasBody });
    } catch (err) {
      failed(err);
      done();
      return;
    }
    if (answer instanceof Promise) {
      answer.then(write).catch(failed).finally(done);
      return;
    }
    // Written within the request event: no extra turn of the event loop (app.ts says why).
    try {
      write(answer);
    } catch (err) {
      failed(err);
    }
    done();
  });

  server.requestTimeout = options.requestTimeoutMs;
  server.headersTimeout = Math.min(options.headersTimeoutMs, options.requestTimeoutMs);
  server.keepAliveTimeout = 5_000;
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const status = err.code === "HPE_HEADER_OVERFLOW" ? 431 : err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
    const message = status === 431 ? "Request headers too large." : status === 408 ? "Request timed out." : "Malformed HTTP request.";
    const body = errorBody(status, message);
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${body.byteLength}\r\nConnection: close\r\n\r\n${body.toString("utf8")}`);
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  async function shutdown(): Promise<void> {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info("shutting down", { inFlight, graceMs: options.shutdownGraceMs });
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    if (inFlight > 0) {
      await Promise.race([
        new Promise<void>((resolve) => { drained = resolve; }),
        new Promise<void>((resolve) => setTimeout(resolve, options.shutdownGraceMs).unref()),
      ]);
    }
    server.closeAllConnections();
    await closed;
    logger.info("stopped");
  }

  return { server, port, shutdown, isShuttingDown: () => shuttingDown };
}
