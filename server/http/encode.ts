/**
 * A handler's result as the bytes of a 200 body, in the content coding the request accepts: one
 * serializer per form of result (endpoint.ts HandlerResult). Bodies of at most
 * COMPRESSION_THRESHOLD_BYTES go uncompressed. A result given as parts (api/body-parts.ts) goes
 * gzip whenever the client takes gzip as willingly as br: its gzip body is spliced from the
 * parts' deflated copies instead of compressing the whole.
 */
import { gzipParts, joinParts, partsLongerThan } from "../api/body-parts.ts";
import type { HandlerResult } from "../endpoints/endpoint.ts";
import { compress, COMPRESSION_THRESHOLD_BYTES, negotiateEncoding, negotiateSplicedEncoding, successBody, successBodyFromJson, successParts, type Encoding } from "./respond.ts";

export interface Encoded {
  body: Buffer;
  encoding: Encoding;
}

export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
}

/** The 200 body of `result`, compressed as the Accept-Encoding header `accept` allows (undefined: identity). */
export function encodeResult(result: HandlerResult, accept: string | undefined): Encoded {
  if ("contentType" in result) {
    const body = typeof result.body === "string" ? Buffer.from(result.body, "utf8") : Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength);
    const encoding = accept !== undefined && body.byteLength > COMPRESSION_THRESHOLD_BYTES ? negotiateEncoding(accept) : "identity";
    return { body: compress(body, encoding), encoding };
  }
  if ("contentParts" in result) {
    const parts = successParts(result.contentParts);
    const encoding = accept !== undefined && partsLongerThan(parts, COMPRESSION_THRESHOLD_BYTES) ? negotiateSplicedEncoding(accept) : "identity";
    if (encoding === "gzip") return { body: gzipParts(parts), encoding };
    return { body: compress(joinParts(parts), encoding), encoding };
  }
  const body = "contentJson" in result ? successBodyFromJson(200, result.contentJson) : successBody(200, result.content);
  const encoding = accept !== undefined && body.byteLength > COMPRESSION_THRESHOLD_BYTES ? negotiateEncoding(accept) : "identity";
  return { body: compress(body, encoding), encoding };
}
