/**
 * The only file that touches node:http: adapts the pure app (app.ts) to sockets, sets the
 * header and request time limits, logs one line per request, and shuts down gracefully.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Logger } from "../../datasets/common/log.ts";
import { logAccess, type AccessLog } from "./access-log.ts";
import type { App, AppResponse } from "./app.ts";
import { connectionGuard, MAX_PIPELINED_REQUESTS } from "./connection-guard.ts";
import { answerBytes, errorAnswer, requestLineOf } from "./raw-answer.ts";
import { errors, type ApiError } from "./api-error.ts";

export interface ServerOptions {
  host: string;
  port: number;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  shutdownGraceMs: number;
  keepAliveTimeoutMs: number;
}

export interface RunningServer {
  server: http.Server;
  /** The port it listens on; 0 while it does not (a standby cluster worker, server/worker-pool.ts). */
  port: number;
  /** Starts (or resumes) accepting connections, on the port it had before if any; resolves with the port. */
  accept(): Promise<number>;
  /**
   * Stops accepting connections (a cluster worker the pool no longer needs): idle connections
   * close at once, the others after their answer in progress (`Connection: close`), and any left
   * after the request time limit are closed (node checks the header and request time limits only
   * while a server listens).
   */
  stopAccepting(): void;
  /** Closes this share (0-1) of the open connections, each after its next answer, so that clients reconnect elsewhere. */
  shed(share: number): void;
  /** Open client connections. */
  readonly connections: number;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then closes. */
  shutdown(): Promise<void>;
  isShuttingDown(): boolean;
}

/** Largest request head (request line plus headers) node:http accepts; larger gets 431. */
const MAX_HEADER_BYTES = 16 * 1024;

/** `listen: false` builds the server without accepting (a standby cluster worker): RunningServer.accept() starts it. */
export async function startServer(app: App, options: ServerOptions, accessLogger: AccessLog, logger: Logger, { listen = true } = {}): Promise<RunningServer> {
  let shuttingDown = false;
  let inFlight = 0;
  let drained: (() => void) | undefined;
  /** Not accepting: every answer closes its connection. */
  let draining = false;
  let drainTimer: NodeJS.Timeout | undefined;
  /** Answers still to close their connection (shed). */
  let toShed = 0;
  let openConnections = 0;

  // A connection whose answers make no progress for the request time limit is closed (connection-guard.ts).
  const guard = connectionGuard(options.requestTimeoutMs, (socket) => logger.warn("closed a connection that reads no answers", { remote: socket.remoteAddress, stalledMs: options.requestTimeoutMs }));

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const socket = req.socket;
    const verdict = guard.admit(socket);
    // Behind an answer that closes the connection: node would drop this answer, so the app never runs.
    if (verdict === "drop") return;
    const started = performance.now();
    inFlight++;
    const method = req.method ?? "GET";
    const url = req.url ?? "/";
    const contentLength = Number(req.headers["content-length"] ?? 0);
    const hasBody = (Number.isFinite(contentLength) && contentLength > 0) || req.headers["transfer-encoding"] !== undefined;
    let answered = false;
    let settled = false;
    const settle = (): void => {
      if (settled) return;
      settled = true;
      guard.settled(socket, answered);
    };
    res.once("finish", settle);
    res.once("close", settle);
    const write = (out: AppResponse): void => {
      if (hasBody || shuttingDown || draining || verdict === "refuse") out.headers.Connection = "close";
      else if (toShed > 0) {
        toShed--;
        out.headers.Connection = "close";
      }
      res.writeHead(out.status, out.headers);
      answered = true;
      guard.answered(socket, out.headers.Connection === "close" || !res.shouldKeepAlive);
      res.end(out.body);
      logAccess(accessLogger, { method, url, route: out.route, status: out.status, durationMs: performance.now() - started, bytes: out.body.byteLength, remote: socket.remoteAddress });
    };
    const failed = (err: unknown): void => {
      // app() never throws nor rejects; this is the last line of defence against a crash.
      logger.error("request failed outside the app", { err });
      if (!res.headersSent) {
        write(errorAnswer(errors.internal(), "unknown"));
      } else {
        res.destroy();
      }
    };
    const done = (): void => {
      inFlight--;
      if (inFlight === 0 && drained) drained();
    };
    if (verdict === "refuse") {
      write(errorAnswer(errors.tooManyPipelined(MAX_PIPELINED_REQUESTS), "rejected"));
      done();
      return;
    }
    // Bodies are refused unread; drain nothing, close the connection after answering.
    let answer: AppResponse | Promise<AppResponse>;
    try {
      answer = app({ method, url, headers: req.headers, hasBody, httpVersion: req.httpVersion });
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
  };

  const server = http.createServer({
    maxHeaderSize: MAX_HEADER_BYTES,
    // How often node checks the header and request time limits (default 30 s, too coarse).
    connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(options.headersTimeoutMs / 2))),
    // A request without Host is answered by the app (400 with the error body and an access line), not by node.
    requireHostHeader: false,
  }, onRequest);
  // `Expect: 100-continue` is not acknowledged (every body is refused, so the client need not send
  // it); any other expectation goes to the app too, which answers 417 with the error body.
  server.on("checkContinue", onRequest);
  server.on("checkExpectation", onRequest);

  server.on("connection", (socket: Socket) => {
    openConnections++;
    guard.track(socket);
    socket.once("close", () => openConnections--);
  });
  server.requestTimeout = options.requestTimeoutMs;
  server.headersTimeout = Math.min(options.headersTimeoutMs, options.requestTimeoutMs);
  server.keepAliveTimeout = options.keepAliveTimeoutMs;

  /** An error answer written straight to the socket (no response object), with its access line. */
  const answerRaw = (socket: Socket, err: ApiError, requestLine: { method: string; url: string }): void => {
    const answer = errorAnswer(err, "rejected");
    socket.end(answerBytes(answer));
    logAccess(accessLogger, { method: requestLine.method, url: requestLine.url, route: answer.route, status: answer.status, durationMs: 0, bytes: answer.body.byteLength, remote: socket.remoteAddress });
  };

  server.on("clientError", (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    const timedOut = err.code === "ERR_HTTP_REQUEST_TIMEOUT";
    // Not a request at all (a reset, a socket error): nothing to answer.
    if (!socket.writable || (!timedOut && !err.code?.startsWith("HPE_"))) {
      socket.destroy();
      return;
    }
    const refusal = err.code === "HPE_HEADER_OVERFLOW" ? errors.headersTooLarge(MAX_HEADER_BYTES) : timedOut ? errors.requestTimeout() : errors.malformedRequest();
    const requestLine = requestLineOf(err.rawPacket);
    // After the answers to the requests before it, if they are still going out.
    guard.closeAfterPending(socket, () => {
      if (socket.writable) answerRaw(socket, refusal, requestLine);
      else socket.destroy();
    });
  });

  // CONNECT (a proxy's tunnel): node hands it over as an event and would close the socket unanswered.
  server.on("connect", (req: http.IncomingMessage, socket: Socket) => {
    answerRaw(socket, errors.methodNotAllowed("CONNECT"), { method: "CONNECT", url: req.url ?? "" });
  });

  /** The port of the first listen (options.port, or the one chosen for 0): accepting again uses it. */
  let boundPort = options.port;
  async function accept(): Promise<number> {
    draining = false;
    clearTimeout(drainTimer);
    if (server.listening) return boundPort;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(boundPort, options.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    boundPort = (server.address() as AddressInfo).port;
    return boundPort;
  }
  if (listen) await accept();

  function stopAccepting(): void {
    if (!server.listening || shuttingDown) return;
    draining = true;
    // Closes the listener and the idle connections (node:http); the busy ones close after their answer.
    server.close();
    drainTimer = setTimeout(() => {
      if (draining) server.closeAllConnections();
    }, options.requestTimeoutMs);
    drainTimer.unref();
  }

  function shed(share: number): void {
    toShed = Math.ceil(Math.min(1, Math.max(0, share)) * openConnections);
  }

  async function shutdown(): Promise<void> {
    if (shuttingDown) return;
    shuttingDown = true;
    clearTimeout(drainTimer);
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
    guard.stop();
    await closed;
    logger.info("stopped");
  }

  return {
    server,
    get port() {
      return server.listening ? boundPort : 0;
    },
    get connections() {
      return openConnections;
    },
    accept,
    stopAccepting,
    shed,
    shutdown,
    isShuttingDown: () => shuttingDown,
  };
}
