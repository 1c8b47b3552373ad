/**
 * The path and query of a request target (RFC 9112 §3.2): origin-form ("/path?query"), or
 * absolute-form ("http://host/path?query", which an HTTP/1.1 server must accept). Anything else,
 * and a target the WHATWG URL parser refuses, is a 400 naming the target.
 *
 * Every step is linear in the target's length (bounded by app.ts MAX_URL_BYTES): PLAIN_PATH
 * cannot backtrack (a segment's characters never include the '/' that ends it), and the test of
 * every regular expression (test/server/regex-safety.test.ts) keeps it so.
 */
import { errors } from "../api/api-error.ts";

/** A path the URL parser would leave as it is: no escapes, dot segments, empty segments or other characters. */
const PLAIN_PATH = /^\/(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*\/)*(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*)?$/;
const ABSOLUTE_FORM = /^https?:\/\//i;

export interface Target {
  path: string;
  searchParams: URLSearchParams;
}

/** Plain targets (nearly all) are split by hand; the rest go through the URL parser, which normalizes them. */
export function splitTarget(target: string): Target {
  const q = target.indexOf("?");
  const path = q < 0 ? target : target.slice(0, q);
  if (PLAIN_PATH.test(path) && !target.includes("#")) return { path, searchParams: new URLSearchParams(q < 0 ? "" : target.slice(q + 1)) };
  let url: URL;
  try {
    // "//x" is refused rather than guessed at: a URL parser (ours, a proxy's, a client's) reads it
    // as the host x. Other origin-form targets are appended to a fixed origin, never resolved.
    if (target.startsWith("/") && !target.startsWith("//")) url = new URL(`http://localhost${target}`);
    else if (ABSOLUTE_FORM.test(target)) url = new URL(target);
    else throw errors.invalidTarget(target);
  } catch {
    throw errors.invalidTarget(target);
  }
  return { path: url.pathname, searchParams: url.searchParams };
}
