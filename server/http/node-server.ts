/**
 * The only file that touches node:http: adapts the app (app.ts) to sockets, sets the header,
 * request and keep-alive time limits, answers the requests of one turn of the event loop together
 * (runBatch), bounds what one connection may hold (connection-guard.ts),
 * answers what node refuses before the app sees it with the spec's error body (raw-answer.ts),
 * logs one line per answer, and shuts down gracefully.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Logger } from "../../datasets/common/log.ts";
import { errors, type ApiError } from "../api/api-error.ts";
import { logAccess, type AccessLog } from "./access-log.ts";
import type { App, AppResponse } from "./app.ts";
import type { Pending } from "./exchange.ts";
import { clientAddress, type TrustedProxies } from "./client-address.ts";
import { connectionGuard, MAX_PIPELINED_REQUESTS } from "./connection-guard.ts";
import { answerBytes, errorAnswer, requestLineOf } from "./raw-answer.ts";

export interface ServerOptions {
  host: string;
  port: number;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  shutdownGraceMs: number;
  keepAliveTimeoutMs: number;
  /** Peers whose X-Forwarded-For names the client in the access log (client-address.ts). */
  trusted?: TrustedProxies | undefined;
  /** How long a batch's answers may wait for the apps of the requests after them (runBatch), ms; default WRITE_AFTER_MS. */
  batchWriteAfterMs?: number;
}

export interface RunningServer {
  server: http.Server;
  /** The port it listens on. */
  port: number;
  /** Open client connections. */
  readonly connections: number;
  /**
   * Draining (SIGTERM, before the close): every answer says `Connection: close`, so that clients
   * behind a balancer reconnect to another node; requests are still answered.
   */
  drain(): void;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then closes. */
  shutdown(): Promise<void>;
  isShuttingDown(): boolean;
}

/**
 * Bodies up to this size are sent with the head in one write (see write()). Measured against
 * writev on cache hits (bench/http.bench.ts --against, A B A B): 10-17 % less CPU per request on
 * 75 B to 2 KB bodies (elevation, METAR, search, point weather); SYNOP's 22-32 KB bodies cost 23 %
 * more that way (the copy into text outweighs the saved writev).
 */
const ONE_WRITE_MAX_BYTES = 8 * 1024;

/** How long a batch's answers may wait for the apps of the requests after them (runBatch), ms. */
export const WRITE_AFTER_MS = 1;

/** Largest request head (request line plus headers) node:http accepts; larger gets 431. */
const MAX_HEADER_BYTES = 16 * 1024;

export async function startServer(app: App, options: ServerOptions, accessLogger: AccessLog, logger: Logger): Promise<RunningServer> {
  let shuttingDown = false;
  let draining = false;
  let inFlight = 0;
  let drained: (() => void) | undefined;
  let openConnections = 0;

  // A connection whose answers make no progress for the request time limit is reset (connection-guard.ts).
  const guard = connectionGuard(options.requestTimeoutMs, (socket) => logger.warn("reset a connection that reads no answers", { remote: socket.remoteAddress, stalledMs: options.requestTimeoutMs }));

  /**
   * The requests parsed in one turn of the event loop, answered together once every ready socket
   * has been read (setImmediate: after libuv's poll phase): first the app for each, then their
   * writes. The app's code and data then stay in the CPU's caches from one request to the next,
   * rather than being evicted by the socket reads, node's HTTP parser and the writes between them
   * (docs/http.md "Requests answered in batches"). The answers computed so far are written
   * whenever the batch has run for writeAfterMs, so that cheap answers never wait long behind
   * costly ones.
   */
  const writeAfterMs = options.batchWriteAfterMs ?? WRITE_AFTER_MS;
  let batch: (() => (() => void) | undefined)[] = [];
  const runBatch = (): void => {
    const jobs = batch;
    batch = [];
    let writes: (() => void)[] = [];
    let since = performance.now();
    for (const job of jobs) {
      const written = job();
      if (written !== undefined) writes.push(written);
      if (performance.now() - since >= writeAfterMs) {
        for (const w of writes) w();
        writes = [];
        since = performance.now();
      }
    }
    for (const w of writes) w();
  };

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const socket = req.socket;
    const contentLength = Number(req.headers["content-length"] ?? 0);
    const hasBody = (Number.isFinite(contentLength) && contentLength > 0) || req.headers["transfer-encoding"] !== undefined;
    // Known now, before the answer: the connection ends with it (a body is refused unread; the
    // client asked to close), so requests pipelined behind it must not run.
    const verdict = guard.admit(socket, hasBody || !res.shouldKeepAlive);
    // Behind an answer that closes the connection: node would drop this answer, so the app never runs.
    if (verdict === "drop") return;
    const started = performance.now();
    inFlight++;
    const method = req.method ?? "GET";
    const url = req.url ?? "/";
    let answered = false;
    let settled = false;
    const settle = (): void => {
      if (settled) return;
      settled = true;
      guard.settled(socket, answered);
    };
    // `on`, not `once`: settle runs once anyway, and the response is dropped after it.
    res.on("finish", settle);
    res.on("close", settle);
    const write = (out: AppResponse): void => {
      // Bodies are refused unread: the connection closes after the answer.
      if (hasBody || shuttingDown || draining || verdict === "refuse") out.headers.Connection = "close";
      res.writeHead(out.status, out.headers);
      answered = true;
      guard.answered(socket, out.headers.Connection === "close" || !res.shouldKeepAlive);
      // A small body goes out as latin1 text (its bytes unchanged): node then sends the head and
      // the body in one write, where a Buffer takes a writev of two chunks and its JavaScript.
      if (out.body.byteLength <= ONE_WRITE_MAX_BYTES) res.end(out.body.toString("latin1"), "latin1");
      else res.end(out.body);
      logAccess(accessLogger, { method, url, route: out.route, status: out.status, durationMs: performance.now() - started, bytes: out.body.byteLength, remote: clientAddress(socket.remoteAddress, req.headers["x-forwarded-for"], options.trusted) });
    };
    const failed = (err: unknown): void => {
      // app() never rejects; this is the last line of defence against a crash.
      logger.error("request failed outside the app", { err });
      if (!res.headersSent) write(errorAnswer(errors.internal(), "unknown"));
      else res.destroy();
    };
    const done = (): void => {
      inFlight--;
      if (inFlight === 0 && drained) drained();
    };
    batch.push(() => {
      let answer: Pending<AppResponse>;
      try {
        answer = verdict === "refuse" ? errorAnswer(errors.tooManyPipelined(MAX_PIPELINED_REQUESTS), "rejected") : app({ method, url, headers: req.headers, hasBody, httpVersion: req.httpVersion });
      } catch (err) {
        answer = Promise.reject(err);
      }
      if (answer instanceof Promise) {
        answer.then(write).catch(failed).finally(done);
        return undefined;
      }
      // A synchronous answer (a cache hit, an error) is written without a promise, after the batch's apps.
      return () => {
        try {
          write(answer);
        } catch (err) {
          failed(err);
        }
        done();
      };
    });
    if (batch.length === 1) setImmediate(runBatch);
  };

  const server = http.createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      // How often node checks the header and request time limits (default 30 s, too coarse).
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(options.headersTimeoutMs / 2))),
      // A request without Host is answered by the app (400 with the error body and an access line), not by node.
      requireHostHeader: false,
    },
    onRequest,
  );
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
    // Before node's close() ends them gracefully (connection-guard.ts).
    guard.resetUnsent();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    if (inFlight > 0) {
      await Promise.race([
        new Promise<void>((resolve) => {
          drained = resolve;
        }),
        new Promise<void>((resolve) => setTimeout(resolve, options.shutdownGraceMs).unref()),
      ]);
    }
    guard.resetUnsent();
    server.closeAllConnections();
    guard.stop();
    await closed;
    logger.info("stopped");
  }

  return {
    server,
    port,
    get connections() {
      return openConnections;
    },
    drain() {
      draining = true;
    },
    shutdown,
    isShuttingDown: () => shuttingDown,
  };
}
