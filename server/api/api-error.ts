/**
 * The one error class of the HTTP layer, and the catalog of every error the API returns.
 * The wire body is always the spec's `{ status: "error", code, message }`.
 */

export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

/** Shows a client-supplied value in a message: quoted, control characters escaped, cut at 100 characters. */
export function showValue(value: string): string {
  const cut = value.length > 100 ? value.slice(0, 100) + "…" : value;
  return JSON.stringify(cut);
}

/** Every error message the API produces, in one place (README "Errors" lists them). */
export const errors = {
  missingParameter: (name: string) => new ApiError(400, `Missing required parameter '${name}'.`),
  repeatedParameter: (name: string, count: number) =>
    new ApiError(400, `Parameter '${name}' was given ${count} times; give it once.`),
  unknownParameter: (name: string, allowed: readonly string[]) =>
    new ApiError(
      400,
      `Unknown parameter ${showValue(name)}; this endpoint accepts ${allowed.length ? allowed.map((a) => `'${a}'`).join(", ") : "no parameters"}.`,
    ),
  invalidParameter: (name: string, value: string, expected: string) =>
    new ApiError(400, `Invalid value ${showValue(value)} for parameter '${name}': expected ${expected}.`),
  invalidTarget: (target: string) =>
    new ApiError(400, `Malformed request target ${showValue(target)}: expected a path such as "/geocode/search/2/json?q=Berlin".`),
  unauthorized: () => new ApiError(401, "Missing or invalid API key: send a valid key in the X-Api-Key header."),
  notFound: (what: string) => new ApiError(404, what),
  unknownPath: (path: string) => new ApiError(404, `No such endpoint: ${showValue(path)}.`),
  methodNotAllowed: (method: string) =>
    new ApiError(405, `Method ${showValue(method)} is not allowed; use GET or HEAD.`, { Allow: "GET, HEAD" }),
  bodyNotAllowed: () => new ApiError(413, "Request bodies are not accepted: every endpoint is a GET without a body."),
  rateLimited: (requests: number, windowSeconds: number, retryAfterSeconds: number, headers: Record<string, string>) =>
    new ApiError(429, `Rate limit exceeded for this key: ${requests} requests per ${windowSeconds} s; retry after ${retryAfterSeconds} s.`, headers),
  missingHost: () => new ApiError(400, "Missing Host header: an HTTP/1.1 request must name its host."),
  expectationFailed: (expectation: string) =>
    new ApiError(417, `Unsupported expectation ${showValue(expectation)}: only "100-continue" is understood, and no endpoint takes a body.`),
  malformedRequest: () => new ApiError(400, "Malformed HTTP request."),
  headersTooLarge: (limit: number) => new ApiError(431, `Request headers too large: at most ${limit} bytes.`),
  requestTimeout: () => new ApiError(408, "Request timed out: the request was not received in time."),
  tooManyPipelined: (limit: number) =>
    new ApiError(429, `Too many pipelined requests on one connection: at most ${limit} answers may wait unread; read them before sending more.`),
  uriTooLong: (limit: number) => new ApiError(414, `Request URL is longer than ${limit} bytes.`),
  datasetUnavailable: (names: readonly string[]) =>
    new ApiError(
      503,
      `Service temporarily unavailable: dataset ${names.map((n) => `'${n}'`).join(", ")} is not loaded (not built, or failed its checks); see GET /health.`,
    ),
  notReady: (why: string) => new ApiError(503, `Not ready: ${why}.`),
  shuttingDown: () => new ApiError(503, "Service is shutting down; retry on another instance.", { Connection: "close" }),
  internal: () => new ApiError(500, "Internal server error."),
} as const;
