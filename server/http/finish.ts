/**
 * The last step of every answer: the headers every answer has, then the answer's own, CORS and
 * rate-limit ones, and its coding's; the body in its coding, or none for HEAD and 304
 * (Content-Length still gives a HEAD the GET length).
 */
import { codedBytes } from "./compression.ts";
import { corsHeaders, type CorsOrigins } from "./cors.ts";
import { EMPTY, type Answer, type AppResponse, type Exchange } from "./exchange.ts";

export function finish(x: Exchange, a: Answer, corsOrigins: CorsOrigins): AppResponse {
  if (a.bare) return { status: a.status, headers: a.headers, body: EMPTY, route: x.route };
  const body = a.status === 304 ? EMPTY : codedBytes(a);
  const headers: Record<string, string> = {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(body.byteLength),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    ...a.headers,
    // Every answer varies with the coding; a layer's own Vary (freshness: X-Api-Key) and CORS's come after.
    Vary: a.headers.Vary === undefined ? "Accept-Encoding" : `Accept-Encoding, ${a.headers.Vary}`,
  };
  const cors = corsHeaders(corsOrigins, x.req.headers);
  for (const name in cors) headers[name] = name === "Vary" ? `${headers.Vary}, ${cors.Vary}` : cors[name]!;
  if (x.rate !== undefined) Object.assign(headers, x.rate);
  if (a.encoding !== "identity") headers["Content-Encoding"] = a.encoding;
  if (a.status === 304) {
    // Not Modified: the validators and caching headers of the 200, no body (RFC 9110 §15.4.5).
    delete headers["Content-Type"];
    delete headers["Content-Length"];
  }
  return { status: a.status, headers, body: x.req.method === "HEAD" ? EMPTY : body, route: x.route };
}
