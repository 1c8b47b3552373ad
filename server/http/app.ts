/**
 * The HTTP core as a function from a request to a response, with no socket in sight: tests call
 * it in-process, and server/http/node-server.ts adapts it to node:http.
 *
 * Order of checks (docs/decisions.md "Order of checks"):
 * Host on HTTP/1.1 (400) → Expect other than 100-continue (417) → URL length (414) → body (413) →
 * CORS preflight (204) → method (405) → shutting down (503) → target (400) → public paths
 * (/health, /health/live, /health/ready, /openapi.json, the docs page / and /docs/*) → API key (401) → rate limit (429) →
 * path (404) → query parameters (400) → datasets (503) → the response cache → handler →
 * If-None-Match (304).
 */
import type { Logger } from "../../datasets/common/log.ts";
import { ApiError, errors } from "../api/api-error.ts";
import { Query } from "../api/query.ts";
import { reportServingFault } from "../datasets/fault-check.ts";
import type { DatasetRegistry } from "../datasets/registry.ts";
import type { DocsAsset } from "../docs-page/docs-page.ts";
import type { Endpoint, ForeignApi } from "../endpoints/endpoint.ts";
import type { LoadedDatasets } from "../endpoints/loaded-datasets.ts";
import { encodeResult, headerValue, type Encoded } from "./encode.ts";
import type { KeyChecker } from "./auth.ts";
import { apiTagOf, CACHE_POLICY, cacheBucket, cacheControl, cacheHeadersAfter, encodedTag, ifNoneMatchHits, newestRunTimeOf, tagPrefix } from "./cache.ts";
import { corsHeaders, isPreflight, preflightHeaders, type CorsOrigins } from "./cors.ts";
import type { RateLimiter } from "./rate-limit.ts";
import { compress, errorBody, negotiateEncoding, staticBody, successBody, COMPRESSION_THRESHOLD_BYTES } from "./respond.ts";
import type { ResponseCache } from "./response-cache.ts";
import { splitTarget } from "./target.ts";

export const MAX_URL_BYTES = 8192;

export interface AppRequest {
  method: string;
  /** The request target as received (path and query). */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** True when the request announces a body (Content-Length > 0 or Transfer-Encoding). */
  hasBody: boolean;
  /** "1.1" or "1.0" as node parsed it; undefined for in-process callers (taken as 1.1 with a Host). */
  httpVersion?: string;
}

export interface AppResponse {
  status: number;
  headers: Record<string, string>;
  /** The encoded body; empty for HEAD (Content-Length still gives the GET length). */
  body: Buffer;
  /** The route for the access log ("unknown" for a path we do not serve). */
  route: string;
}

export interface AppDeps {
  endpoints: readonly Endpoint[];
  registry: DatasetRegistry<LoadedDatasets>;
  keys: KeyChecker;
  openapi: () => unknown;
  logger: Logger;
  now?: () => Date;
  isShuttingDown?: () => boolean;
  /** Draining before a shutdown (SIGTERM): /health/ready answers 503 while requests are still served. */
  isDraining?: () => boolean;
  startedAt?: Date;
  /** Origins allowed to read answers (GEODATA_CORS_ORIGINS); default `*`. */
  corsOrigins?: CorsOrigins;
  /** Per-key limits (GEODATA_RATE_LIMIT); none when absent. */
  rateLimiter?: RateLimiter;
  /** The docs page and its assets (GET / and /docs/*, no key); undefined for any other path. */
  docs?: (path: string) => DocsAsset | undefined;
  /** Whole answers of the cacheable endpoints (GEODATA_RESPONSE_CACHE_MB); none when absent. */
  responseCache?: ResponseCache;
}

export type App = (req: AppRequest) => Promise<AppResponse>;

/** The X-Api-Key header; a repeated header is refused rather than guessed at. */
function apiKeyOf(headers: AppRequest["headers"]): string | undefined {
  const v = headers["x-api-key"];
  if (Array.isArray(v)) return v.length === 1 ? v[0] : undefined;
  return v;
}

export function createApp(deps: AppDeps): App {
  const byPath = new Map(deps.endpoints.map((e) => [e.path, e] as const));
  const now = deps.now ?? (() => new Date());
  const startedAt = deps.startedAt ?? now();
  const corsOrigins = deps.corsOrigins ?? "*";
  let apiTag: string | undefined;
  let openapiBody: Buffer | undefined;

  /** The headers every answer has, then the answer's own, CORS and rate-limit ones, and the coding's. */
  function finish(req: AppRequest, status: number, encoded: Encoded, route: string, extra: Readonly<Record<string, string>>, rate: Readonly<Record<string, string>> | undefined): AppResponse {
    const headers: Record<string, string> = {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": String(encoded.body.byteLength),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      Vary: "Accept-Encoding",
      ...extra,
    };
    const cors = corsHeaders(corsOrigins, req.headers);
    for (const name in cors) headers[name] = name === "Vary" ? `${headers.Vary}, ${cors.Vary}` : cors[name]!;
    if (rate !== undefined) Object.assign(headers, rate);
    if (encoded.encoding !== "identity") headers["Content-Encoding"] = encoded.encoding;
    if (status === 304) {
      // Not Modified: the validators and caching headers of the 200, no body (RFC 9110 §15.4.5).
      delete headers["Content-Type"];
      delete headers["Content-Length"];
    }
    return { status, headers, body: req.method === "HEAD" || status === 304 ? Buffer.alloc(0) : encoded.body, route };
  }

  /** A body compressed as the request accepts (bodies over the threshold only). */
  function encodeWhole(req: AppRequest, body: Buffer): Encoded {
    const encoding = body.byteLength > COMPRESSION_THRESHOLD_BYTES ? negotiateEncoding(headerValue(req.headers, "accept-encoding")) : "identity";
    return { body: compress(body, encoding), encoding };
  }

  /** The error answer, in the spec's error body or a foreign API's own shape. */
  function fail(req: AppRequest, err: unknown, route: string, rate: Readonly<Record<string, string>> | undefined, foreign: ForeignApi | undefined): AppResponse {
    if (!(err instanceof ApiError)) {
      // Unknown faults: a generic 500 for the client, the details (with stack) for the log.
      deps.logger.error("unhandled error", { route, err });
      err = errors.internal();
    }
    const e = err as ApiError;
    const body = foreign ? foreign.errorBody(e.status, e.message) : errorBody(e.status, e.message);
    return finish(req, e.status, encodeWhole(req, body), route, e.headers, rate);
  }

  /** The dataset states, the newest forecast run and the ETag prefixes, recomputed only when the datasets change. */
  let statesOf: { generation: number; states: ReturnType<DatasetRegistry["list"]>; newestRunTime: string | undefined; tagPrefixes: Map<string, string> } | undefined;
  function currentStates(): NonNullable<typeof statesOf> {
    const generation = deps.registry.generation;
    if (statesOf?.generation !== generation) {
      const states = deps.registry.list();
      statesOf = { generation, states, newestRunTime: newestRunTimeOf(states.find((s) => s.name === "forecast")), tagPrefixes: new Map() };
    }
    return statesOf;
  }

  /** A public path (no key), or undefined. */
  function publicAnswer(req: AppRequest, path: string): AppResponse | undefined {
    // For load balancers and orchestrators: live while the process answers; ready when every
    // dataset serves and the process is not draining.
    if (path === "/health/live") return finish(req, 200, encodeWhole(req, successBody(200, { live: true })), "/health/live", {}, undefined);
    if (path === "/health/ready") {
      const notReady = deps.registry.list().filter((d) => !deps.registry.isReady(d.name)).map((d) => d.name);
      if (deps.isDraining?.()) throw errors.notReady("the server is draining before it stops");
      if (notReady.length > 0) throw errors.notReady(`dataset ${notReady.map((n) => `'${n}'`).join(", ")} not loaded; see GET /health`);
      return finish(req, 200, encodeWhole(req, successBody(200, { ready: true })), "/health/ready", {}, undefined);
    }
    if (path === "/health") {
      // Read afresh: a refused reload changes what /health says without changing what serves.
      const datasets = deps.registry.list();
      const newestRunTime = newestRunTimeOf(datasets.find((s) => s.name === "forecast"));
      const healthy = datasets.every((d) => d.status === "ready");
      const at = now().getTime();
      const body = successBody(200, {
        service: "geodata",
        state: healthy ? "ready" : "degraded",
        startedAt: startedAt.toISOString(),
        uptimeSeconds: Math.round((at - startedAt.getTime()) / 1000),
        // How old the newest forecast run is: a sample run years old says that a nightly is due.
        ...(newestRunTime !== undefined ? { newestForecastRun: { runTime: new Date(newestRunTime).toISOString().replace(".000Z", "Z"), ageSeconds: Math.max(0, Math.floor((at - Date.parse(newestRunTime)) / 1000)) } } : {}),
        datasets,
      });
      return finish(req, 200, encodeWhole(req, body), "/health", {}, undefined);
    }
    if (path === "/openapi.json") {
      // Serialized and compressed once (respond.ts staticBody), not per request.
      openapiBody ??= staticBody(Buffer.from(JSON.stringify(deps.openapi()), "utf8"));
      return finish(req, 200, encodeWhole(req, openapiBody), "/openapi.json", { "Cache-Control": "public, max-age=3600" }, undefined);
    }
    const page = deps.docs?.(path);
    if (page) {
      const encoded = encodeWhole(req, page.body);
      const etag = encoded.encoding === "identity" ? page.etag : `${page.etag.slice(0, -1)}-${encoded.encoding}"`;
      const headers = { "Content-Type": page.contentType, "Cache-Control": page.cacheControl, ETag: etag };
      const hit = ifNoneMatchHits(headerValue(req.headers, "if-none-match"), etag);
      return finish(req, hit ? 304 : 200, hit ? { body: Buffer.alloc(0), encoding: "identity" } : encoded, "docs", headers, undefined);
    }
    return undefined;
  }

  return async function app(req: AppRequest): Promise<AppResponse> {
    let route = "unknown";
    let rate: Record<string, string> | undefined;
    let foreign: ForeignApi | undefined;
    try {
      // RFC 9112 §3.2: a 1.1 request without Host is a 400 (node's own would lack our error body and access line).
      if (req.httpVersion === "1.1" && req.headers.host === undefined) throw errors.missingHost();
      const expectation = headerValue(req.headers, "expect");
      if (expectation !== undefined && expectation.toLowerCase() !== "100-continue") throw errors.expectationFailed(expectation);
      if (Buffer.byteLength(req.url, "utf8") > MAX_URL_BYTES) throw errors.uriTooLong(MAX_URL_BYTES);
      if (req.hasBody) throw errors.bodyNotAllowed();
      if (isPreflight(req.method, req.headers)) {
        // No key: browsers never send one on a preflight.
        return { status: 204, headers: preflightHeaders(corsOrigins, req.headers), body: Buffer.alloc(0), route: "preflight" };
      }
      if (req.method !== "GET" && req.method !== "HEAD") throw errors.methodNotAllowed(req.method);
      if (deps.isShuttingDown?.()) throw errors.shuttingDown();

      const { path, searchParams } = splitTarget(req.url);
      if (path === "/health/ready") route = path;
      const open = publicAnswer(req, path);
      if (open) return open;

      const endpoint = byPath.get(path);
      foreign = endpoint?.foreign;
      let key = apiKeyOf(req.headers);
      // A foreign API's clients may send the key in the query (Open-Meteo's SDK does); it is taken
      // out before the parameters are checked, and no access line shows it (access-log.ts).
      const queryKey = foreign ? searchParams.getAll("apikey") : [];
      if (queryKey.length > 0) {
        searchParams.delete("apikey");
        if (key === undefined && queryKey.length === 1) key = queryKey[0];
      }
      if (!deps.keys.isValid(key)) throw errors.unauthorized();
      if (deps.rateLimiter && key !== undefined) {
        const decision = deps.rateLimiter.take(key);
        rate = decision.headers;
        if (!decision.allowed) {
          if (byPath.has(path)) route = path;
          const { requests, windowSeconds } = deps.rateLimiter.config;
          throw errors.rateLimited(requests, windowSeconds, decision.retryAfterSeconds, {});
        }
      }

      if (!endpoint) throw errors.unknownPath(path);
      route = endpoint.path;
      const params = endpoint.parse(new Query(searchParams, endpoint.params));

      const unavailable = endpoint.datasets.filter((d) => !deps.registry.isReady(d));
      if (unavailable.length > 0) throw errors.datasetUnavailable(unavailable);
      const data: Partial<LoadedDatasets> = {};
      const used = [...endpoint.datasets, ...(endpoint.optionalDatasets ?? []).filter((d) => deps.registry.isReady(d))];
      for (const d of used) (data as Record<string, unknown>)[d] = deps.registry.get(d);

      // The states of the datasets just taken (same tick): a reload cannot slip in between.
      const { states, newestRunTime, generation, tagPrefixes } = currentStates();
      const instant = now();
      const policy = CACHE_POLICY[route];
      const accept = headerValue(req.headers, "accept-encoding");
      const cache = deps.responseCache;
      const cacheKey = cache?.enabled && policy !== undefined && policy !== "instant" ? `${route} ${cacheBucket(policy, instant) ?? ""} ${JSON.stringify(params)}` : undefined;
      const control = policy === undefined ? undefined : cacheControl(policy, instant, newestRunTime);
      // Station observations are one answer per station, a bounded set sent many times: kept
      // answers are compressed harder once (respond.ts KEPT_BROTLI_QUALITY), and their ETag says so.
      const effort = policy === "observations" ? "kept" : "per-request";

      let hit = cacheKey === undefined ? undefined : cache!.get(cacheKey, generation);
      if (hit === undefined) {
        const result = await endpoint.handle(params, data as LoadedDatasets, { now: instant });
        if (policy === undefined) {
          const headers = "contentType" in result ? { ...result.headers, "Content-Type": result.contentType } : (result.headers ?? {});
          return finish(req, 200, encodeResult(result, accept), route, headers, rate);
        }
        let prefix = tagPrefixes.get(route);
        if (prefix === undefined) {
          // The datasets an endpoint uses are the same for every request of one generation.
          prefix = tagPrefix((apiTag ??= apiTagOf(deps.openapi())), route, states.filter((s) => used.includes(s.name)));
          tagPrefixes.set(route, prefix);
        }
        const etag = cacheHeadersAfter(prefix, { kind: policy, params, encoding: "identity", now: instant, newestRunTime }).ETag;
        if (cacheKey === undefined) {
          const encoded = encodeResult(result, accept);
          const headers = { ...result.headers, ETag: encodedTag(etag, encoded.encoding), "Cache-Control": control! };
          if (ifNoneMatchHits(headerValue(req.headers, "if-none-match"), headers.ETag)) return finish(req, 304, { body: Buffer.alloc(0), encoding: "identity" }, route, headers, rate);
          return finish(req, 200, encoded, route, headers, rate);
        }
        // Stored under the generation read before the handler ran: a reload during the handler
        // makes the entry stale at once rather than late.
        hit = { body: encodeResult(result, undefined).body, headers: { ...result.headers }, etag, encoded: {} };
        cache!.set(cacheKey, generation, hit);
      }
      // A kept answer: its identity body, and each coding compressed once, on first demand.
      const encoding = hit.body.byteLength > COMPRESSION_THRESHOLD_BYTES ? negotiateEncoding(accept) : "identity";
      const headers = { ...hit.headers, ETag: encodedTag(hit.etag, encoding, effort), "Cache-Control": control! };
      if (ifNoneMatchHits(headerValue(req.headers, "if-none-match"), headers.ETag)) return finish(req, 304, { body: Buffer.alloc(0), encoding: "identity" }, route, headers, rate);
      let body = encoding === "identity" ? hit.body : hit.encoded[encoding];
      if (body === undefined && encoding !== "identity") {
        body = compress(hit.body, encoding, effort);
        cache!.addEncoding(cacheKey!, hit, encoding, body);
      }
      return finish(req, 200, { body: body ?? hit.body, encoding }, route, headers, rate);
    } catch (err) {
      // A fault in a dataset's bytes (server/datasets/fault-check.ts): reported, and a 503 naming it.
      const faulty = reportServingFault(deps.registry, err, byPath.get(route));
      return fail(req, faulty === undefined ? err : errors.datasetUnavailable([faulty]), route, rate, foreign);
    }
  };
}
