/**
 * Error answers made outside the app: the ones node-server.ts gives before or instead of a
 * request event (a parse error, a time limit, CONNECT, one pipelined request too many). They carry
 * the spec's error body and the headers every error answer has, so a client cannot tell which
 * layer answered.
 */
import http from "node:http";
import type { ApiError } from "../api/api-error.ts";
import type { AppResponse } from "./app.ts";
import { errorBody } from "./respond.ts";

/** The error as an app answer (for a response object), closing its connection. */
export function errorAnswer(err: ApiError, route: string): AppResponse {
  const body = errorBody(err.status, err.message);
  return {
    status: err.status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": String(body.byteLength),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      ...err.headers,
      Connection: "close",
    },
    body,
    route,
  };
}

/** An answer as the bytes of an HTTP/1.1 response, for a socket with no response object. */
export function answerBytes(answer: AppResponse): Buffer {
  let head = `HTTP/1.1 ${answer.status} ${http.STATUS_CODES[answer.status] ?? "Error"}\r\n`;
  for (const [name, value] of Object.entries(answer.headers)) head += `${name}: ${value}\r\n`;
  return Buffer.concat([Buffer.from(`${head}\r\n`, "latin1"), answer.body]);
}

/**
 * The method and target of a request node could not parse, from the bytes it read (its
 * `rawPacket`), for the access line; empty when the first line is not `METHOD TARGET ...`.
 * Linear in the bytes: two searches for a space, no regular expression.
 */
export function requestLineOf(raw: Buffer | undefined): { method: string; url: string } {
  if (raw === undefined) return { method: "", url: "" };
  const lineEnd = raw.indexOf(0x0a);
  const line = raw.subarray(0, lineEnd < 0 ? Math.min(raw.byteLength, 16 * 1024) : lineEnd).toString("latin1");
  const sp = line.indexOf(" ");
  if (sp <= 0) return { method: "", url: "" };
  const sp2 = line.indexOf(" ", sp + 1);
  return { method: line.slice(0, sp), url: line.slice(sp + 1, sp2 < 0 ? undefined : sp2) };
}
