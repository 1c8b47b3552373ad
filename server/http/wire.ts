/**
 * The wire layer: a handler's result (endpoint.ts HandlerResult) as the body of a 200, in one
 * place. The envelope's `content` as an object is serialized here; JSON text or bytes written by a
 * domain writer (the weather slots) are wrapped in the envelope; parts stay parts, so that the
 * compression layer can splice a gzip from their deflated copies, and the pieces that say the
 * instant are written here, at the request's (the parts as given stay with the body, for the
 * response cache); a foreign API's body goes as it is, with its Content-Type.
 */
import { joinParts, partsLongerThan, type BodyPart } from "../api/body-parts.ts";
import { atInstant, hasInstantPart } from "../api/instant-part.ts";
import type { HandlerResult } from "../endpoints/endpoint.ts";
import type { Answer, Body } from "./exchange.ts";
import { successBody, successBodyFromJson, successParts } from "./respond.ts";

/** The 200 answer of a handler's result, at the request's instant `now`. */
export function wireAnswer(result: HandlerResult, { now }: { now: Date }): Answer {
  const headers = result.headers ? { ...result.headers } : {};
  if ("contentType" in result) {
    const bytes = typeof result.body === "string" ? Buffer.from(result.body, "utf8") : Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength);
    headers["Content-Type"] = result.contentType;
    return { status: 200, headers, body: { bytes }, encoding: "identity" };
  }
  if ("contentParts" in result) {
    const given = result.contentParts;
    if (!hasInstantPart(given)) return { status: 200, headers, body: { parts: successParts(given as readonly BodyPart[]) }, encoding: "identity" };
    const template = successParts(given);
    return { status: 200, headers, body: { parts: atInstant(template, now), template }, encoding: "identity" };
  }
  const bytes = "contentJson" in result ? successBodyFromJson(200, result.contentJson) : successBody(200, result.content);
  return { status: 200, headers, body: { bytes }, encoding: "identity" };
}

/** The identity bytes of a body (parts joined once, on first demand). */
export function identityBytes(body: Body): Buffer {
  return (body.bytes ??= joinParts(body.parts as readonly BodyPart[]));
}

/** Whether a body's identity bytes are more than `limit`, without joining its parts. */
export function bodyLongerThan(body: Body, limit: number): boolean {
  return body.bytes !== undefined ? body.bytes.byteLength > limit : partsLongerThan(body.parts as readonly BodyPart[], limit);
}
