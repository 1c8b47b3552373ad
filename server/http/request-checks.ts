/**
 * The checks every request passes before its path is looked at, in the order of docs/decisions.md
 * "Order of checks": Host on HTTP/1.1 (400) → Expect other than 100-continue (417) → URL length
 * (414) → body (413) → CORS preflight (204, no key: browsers never send one on a preflight) →
 * method (405) → shutting down (503) → target (400).
 */
import { errors } from "../api/api-error.ts";
import { isPreflight, preflightHeaders, type CorsOrigins } from "./cors.ts";
import { EMPTY, headerValue, type Layer } from "./exchange.ts";
import { splitTarget } from "./target.ts";

export const MAX_URL_BYTES = 8192;

export function requestChecks(corsOrigins: CorsOrigins, isShuttingDown: () => boolean): Layer {
  return (x, next) => {
    const req = x.req;
    // RFC 9112 §3.2: a 1.1 request without Host is a 400 (node's own would lack our error body and access line).
    if (req.httpVersion === "1.1" && req.headers.host === undefined) throw errors.missingHost();
    const expectation = headerValue(req.headers, "expect");
    if (expectation !== undefined && expectation.toLowerCase() !== "100-continue") throw errors.expectationFailed(expectation);
    // Bytes only when the characters could be more than the limit (a UTF-8 byte per character at least).
    if (req.url.length > MAX_URL_BYTES / 3 && Buffer.byteLength(req.url, "utf8") > MAX_URL_BYTES) throw errors.uriTooLong(MAX_URL_BYTES);
    if (req.hasBody) throw errors.bodyNotAllowed();
    if (isPreflight(req.method, req.headers)) {
      x.route = "preflight";
      return ({ status: 204, headers: preflightHeaders(corsOrigins, req.headers), body: { bytes: EMPTY }, encoding: "identity", bare: true });
    }
    if (req.method !== "GET" && req.method !== "HEAD") throw errors.methodNotAllowed(req.method);
    if (isShuttingDown()) throw errors.shuttingDown();
    const { path, searchParams } = splitTarget(req.url);
    x.path = path;
    x.query = searchParams;
    return next(x);
  };
}
