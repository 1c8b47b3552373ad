/**
 * Conditional requests, decided once: an answer whose ETag (already naming its coding) matches
 * If-None-Match becomes a 304 with the 200's validators and caching headers and no body
 * (RFC 9110 §13.1.2, §15.4.5). Outside compression, so a 304 is never compressed.
 */
import { ifNoneMatchHits } from "./cache.ts";
import { after, EMPTY, headerValue, type Answer, type Exchange, type Layer } from "./exchange.ts";

export const conditional: Layer = (x, next) => after(next(x), notModified, x);

function notModified(a: Answer, x: Exchange): Answer {
  const etag = a.headers.ETag;
  if (a.status !== 200 || etag === undefined || !ifNoneMatchHits(headerValue(x.req.headers, "if-none-match"), etag)) return a;
  return { status: 304, headers: a.headers, body: { bytes: EMPTY }, encoding: "identity" };
}
