/**
 * Compression, decided once per answer: bodies over COMPRESSION_THRESHOLD_BYTES get the coding
 * the request's Accept-Encoding prefers (respond.ts negotiateEncoding); a body made of parts goes
 * gzip whenever the client takes gzip as willingly as br, because its gzip is spliced from the
 * parts' deflated copies (api/body-parts.ts) instead of compressing the whole. The layer only
 * chooses the coding and names it in the ETag; the bytes are made when the answer is finished
 * (codedBytes), so a 304 never compresses anything.
 */
import { gzipParts } from "../api/body-parts.ts";
import { ownedBytes } from "../api/owned-bytes.ts";
import { encodedTag } from "./cache.ts";
import { after, headerValue, type Answer, type Exchange, type Layer } from "./exchange.ts";
import { compress, COMPRESSION_THRESHOLD_BYTES, negotiateEncoding, negotiateSplicedEncoding } from "./respond.ts";
import { bodyLongerThan, identityBytes } from "./wire.ts";

export const compression: Layer = (x, next) => after(next(x), chooseCoding, x);

function chooseCoding(a: Answer, x: Exchange): Answer {
  if (a.bare || a.status === 304 || !bodyLongerThan(a.body, COMPRESSION_THRESHOLD_BYTES)) return a;
  const accept = headerValue(x.req.headers, "accept-encoding");
  const encoding = a.body.parts !== undefined ? negotiateSplicedEncoding(accept) : negotiateEncoding(accept);
  if (encoding === "identity") return a;
  a.encoding = encoding;
  if (a.headers.ETag !== undefined) a.headers.ETag = encodedTag(a.headers.ETag, encoding, a.body.kept?.effort);
  return a;
}

/** The answer's body in its coding: a kept copy, a spliced gzip, or compressed now (and kept when the body is). */
export function codedBytes(a: Answer): Buffer {
  const encoding = a.encoding;
  if (encoding === "identity") return identityBytes(a.body);
  const kept = a.body.kept;
  const keptCopy = kept?.copies[encoding];
  if (keptCopy !== undefined) return keptCopy;
  if (encoding === "gzip" && a.body.parts !== undefined && kept === undefined) return gzipParts(a.body.parts);
  const coded = compress(identityBytes(a.body), encoding, kept?.effort);
  if (kept === undefined) return coded;
  const copy = ownedBytes(coded);
  kept.copies[encoding] = copy;
  kept.added(copy.byteLength);
  return copy;
}
