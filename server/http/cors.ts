/**
 * Cross-origin resource sharing (Fetch standard, "CORS protocol"), so that a web page on another
 * origin can call the API with its key in the X-Api-Key header.
 *
 * - Allowed origins come from GEODATA_CORS_ORIGINS: `*` (the default: the key travels in a
 *   header, never a cookie, so no credentials mode is needed) or a list of exact origins; with a
 *   list the matching Origin is echoed and every response carries `Vary: Origin`.
 * - A preflight is an OPTIONS request with Origin and Access-Control-Request-Method. It needs no
 *   key (browsers never send one on a preflight) and is answered 204. Any other OPTIONS request
 *   keeps the 405 of every method other than GET and HEAD.
 */

/** `*`, or the exact origins (scheme://host[:port], no trailing slash) allowed to read answers. */
export type CorsOrigins = "*" | readonly string[];

export const CORS_ALLOWED_METHODS = "GET, HEAD";

/**
 * Request headers a page may set: the key, and If-None-Match for pages that revalidate by hand
 * (it is not CORS-safelisted). Safelisted headers (Accept, Accept-Language...) need no listing.
 */
export const CORS_ALLOWED_HEADERS: readonly string[] = ["X-Api-Key", "If-None-Match"];

/**
 * How long a browser may reuse a preflight answer, seconds. Chromium caps it at 7200 (2 hours),
 * Firefox at 86400; 7200 is what both honour.
 */
export const CORS_MAX_AGE_SECONDS = 7200;

/**
 * Response headers a page may read beyond the safelisted ones (Cache-Control, Content-Type,
 * Content-Length...): all of them. The Fetch standard reads `*` as "every header" for a request
 * whose credentials mode is not "include"; no answer of ours allows credentials (no
 * Access-Control-Allow-Credentials: the key is a header, never a cookie), so `*` exposes exactly
 * what a list would (X-Elevation-Source, X-Forecast-*, ETag, RateLimit, Retry-After...), stays true
 * when an endpoint adds a header, and is one byte on every answer instead of 270.
 */
export const CORS_EXPOSED_HEADERS = "*";

type Headers = Record<string, string | string[] | undefined>;

function single(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** True for a CORS preflight: OPTIONS with both Origin and Access-Control-Request-Method. */
export function isPreflight(method: string, headers: Headers): boolean {
  return method === "OPTIONS" && single(headers, "origin") !== undefined && single(headers, "access-control-request-method") !== undefined;
}

/** The origin to put in Access-Control-Allow-Origin, or undefined when this origin is not allowed. */
function allowedOrigin(origins: CorsOrigins, origin: string | undefined): string | undefined {
  if (origins === "*") return "*";
  if (origin === undefined) return undefined;
  return origins.includes(origin) ? origin : undefined;
}

/** The headers of every answer when any origin is allowed (the default): built once, shared, frozen. */
const ANY_ORIGIN: Readonly<Record<string, string>> = Object.freeze({ "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": CORS_EXPOSED_HEADERS });

/**
 * CORS headers for an actual (non-preflight) response; `Vary: Origin` whenever the answer depends
 * on it. The object returned may be shared: read it, never change it.
 */
export function corsHeaders(origins: CorsOrigins, requestHeaders: Headers): Readonly<Record<string, string>> {
  if (origins === "*") return ANY_ORIGIN;
  const out: Record<string, string> = { Vary: "Origin" };
  const allow = allowedOrigin(origins, single(requestHeaders, "origin"));
  if (allow !== undefined) {
    out["Access-Control-Allow-Origin"] = allow;
    out["Access-Control-Expose-Headers"] = CORS_EXPOSED_HEADERS;
  }
  return out;
}

/**
 * Headers of the 204 answer to a preflight. An origin not in the list gets no
 * Access-Control-Allow-Origin, so the browser refuses the actual request.
 */
export function preflightHeaders(origins: CorsOrigins, requestHeaders: Headers): Record<string, string> {
  const allow = allowedOrigin(origins, single(requestHeaders, "origin"));
  const out: Record<string, string> = {};
  if (origins !== "*") out.Vary = "Origin";
  if (allow === undefined) return out;
  out["Access-Control-Allow-Origin"] = allow;
  out["Access-Control-Allow-Methods"] = CORS_ALLOWED_METHODS;
  out["Access-Control-Allow-Headers"] = CORS_ALLOWED_HEADERS.join(", ");
  out["Access-Control-Max-Age"] = String(CORS_MAX_AGE_SECONDS);
  return out;
}
