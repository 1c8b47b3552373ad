/**
 * The HTTP core as a pure function from a request to a response, with no socket in sight:
 * tests call it in-process, and server/http/node-server.ts adapts it to node:http.
 *
 * Order of checks (README "Request processing"):
 * Host on HTTP/1.1 (400) → Expect other than 100-continue (417) → URL length (414) → body (413) → CORS preflight (204) → method (405) → public paths (/health,
 * /openapi.json, the docs page / and /docs/*) →
 * API key (401) → rate limit (429) → path (404) → query parameters (400) → datasets (503) → handler.
 */
import type { Logger } from "../../datasets/common/log.ts";
import type { DatasetRegistry } from "../datasets/registry.ts";
import type { LoadedDatasets } from "../endpoints/loaded-datasets.ts";
import type { Endpoint, HandlerResult } from "../endpoints/endpoint.ts";
import { ApiError, errors } from "./api-error.ts";
import { apiTagOf, CACHE_POLICY, cacheBucket, cacheControl, cacheHeadersAfter, encodedTag, ifNoneMatchHits, newestRunTimeOf, tagPrefix } from "./cache.ts";
import type { KeyChecker } from "./auth.ts";
import type { DocsAsset } from "../docs-page/docs-page.ts";
import { corsHeaders, isPreflight, preflightHeaders, type CorsOrigins } from "./cors.ts";
import type { RateLimiter } from "./rate-limit.ts";
import { Query } from "./query.ts";
import { splitTarget } from "./target.ts";
import type { CachedAnswer, ResponseCache } from "./response-cache.ts";
import type { SecondCache } from "./second-cache.ts";
import { compress, type CompressionEffort, COMPRESSION_THRESHOLD_BYTES, errorBody, negotiateEncoding, negotiateSplicedEncoding, staticBody, successBody, successBodyFromJson, successParts, type Encoding } from "./respond.ts";
import { gzipParts, joinParts, partsLongerThan, type BodyPart } from "./body-parts.ts";

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
  registry: DatasetRegistry;
  keys: KeyChecker;
  openapi: () => unknown;
  logger: Logger;
  now?: () => Date;
  isShuttingDown?: () => boolean;
  startedAt?: Date;
  /** Origins allowed to read answers (GEODATA_CORS_ORIGINS); default `*`. */
  corsOrigins?: CorsOrigins;
  /** Per-key limits (GEODATA_RATE_LIMIT); none when absent. */
  rateLimiter?: RateLimiter;
  /** The docs page and its assets (GET / and /docs/*, no key); undefined for any other path. */
  docs?: (path: string) => DocsAsset | undefined;
  /** Whole answers of the non-instant cache policies (GEODATA_RESPONSE_CACHE_MB); none when absent. */
  responseCache?: ResponseCache;
  /** Whole answers of the `instant` policy, for the second they were computed in (second-cache.ts); none when absent. */
  secondCache?: SecondCache;
}

/**
 * Answers synchronously whenever it can (every path but an endpoint whose handler awaits, e.g. a
 * disk read): node:http writes an answer given within the request event with no extra turn of the
 * event loop, and a bench measured a microtask's delay at about a third of the throughput of a
 * small answer (docs/http.md). Callers must accept both forms.
 */
export type App = (req: AppRequest) => AppResponse | Promise<AppResponse>;

function headerValue(headers: AppRequest["headers"], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
}

/** The X-Api-Key header; a repeated header is refused rather than guessed at. */
function apiKeyOf(headers: AppRequest["headers"]): string | undefined {
  const v = headers["x-api-key"];
  if (Array.isArray(v)) return v.length === 1 ? v[0] : undefined;
  return v;
}

/** The 200 body of a handler's result in one buffer (`parts`: its successParts, when it has parts). */
function wholeBody(result: HandlerResult, parts: readonly BodyPart[] | undefined): Buffer {
  if ("contentParts" in result) return joinParts(parts ?? successParts(result.contentParts));
  return "contentJson" in result ? successBodyFromJson(200, result.contentJson) : successBody(200, result.content);
}

export function createApp(deps: AppDeps): App {
  const byPath = new Map(deps.endpoints.map((e) => [e.path, e] as const));
  const now = deps.now ?? (() => new Date());
  const startedAt = deps.startedAt ?? now();
  const corsOrigins = deps.corsOrigins ?? "*";
  let apiTag: string | undefined;
  let openapiBody: Buffer | undefined;
  /** RateLimit headers of a request, added to every answer to it once its key has been counted. */
  const rateHeaders = new WeakMap<AppRequest, Record<string, string>>();

  function encodingFor(req: AppRequest, body: Buffer): Encoding {
    return body.byteLength > COMPRESSION_THRESHOLD_BYTES ? negotiateEncoding(headerValue(req.headers, "accept-encoding")) : "identity";
  }

  function finish(req: AppRequest, status: number, body: Buffer, route: string, extra: Record<string, string> = {}): AppResponse {
    const encoding = status === 304 ? "identity" : encodingFor(req, body);
    return finishEncoded(req, status, compress(body, encoding), encoding, route, extra);
  }

  function finishEncoded(req: AppRequest, status: number, encoded: Buffer, encoding: Encoding, route: string, extra: Readonly<Record<string, string>>): AppResponse {
    const headers: Record<string, string> = {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": String(encoded.byteLength),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      Vary: "Accept-Encoding",
      ...extra,
    };
    const cors = corsHeaders(corsOrigins, req.headers);
    for (const name in cors) headers[name] = name === "Vary" ? `${headers.Vary}, ${cors.Vary}` : cors[name]!;
    const rate = rateHeaders.get(req);
    if (rate !== undefined) Object.assign(headers, rate);
    if (encoding !== "identity") headers["Content-Encoding"] = encoding;
    if (status === 304) {
      // Not Modified: the validators and caching headers of the 200, no body (RFC 9110 §15.4.5).
      delete headers["Content-Type"];
      delete headers["Content-Length"];
    }
    return { status, headers, body: req.method === "HEAD" || status === 304 ? Buffer.alloc(0) : encoded, route };
  }

  /**
   * A cached answer (response-cache.ts): its stored bytes, compressed once per coding. Station
   * observations are one answer per station, a bounded set sent many times: compressed harder
   * (respond.ts KEPT_BROTLI_QUALITY). Other answers' keys (points, queries) rarely repeat enough
   * to pay for it, and an answer that is not kept gets the per-request levels. The ETag names the
   * level (cache.ts encodedTag). An answer built from parts gets the coding it got when built
   * (gzip before br: respond.ts negotiateSplicedEncoding).
   */
  function answerCached(req: AppRequest, cache: ResponseCache | SecondCache, key: string, hit: CachedAnswer, route: string, control: string): AppResponse {
    const encoding = hit.spliced !== true
      ? encodingFor(req, hit.body)
      : hit.body.byteLength > COMPRESSION_THRESHOLD_BYTES ? negotiateSplicedEncoding(headerValue(req.headers, "accept-encoding")) : "identity";
    const effort: CompressionEffort = CACHE_POLICY[route] === "observations" ? "kept" : "per-request";
    const headers = { ...hit.headers, ETag: encodedTag(hit.etag, encoding, effort), "Cache-Control": control };
    if (ifNoneMatchHits(headerValue(req.headers, "if-none-match"), headers.ETag)) return finishEncoded(req, 304, Buffer.alloc(0), "identity", route, headers);
    let encoded = encoding === "identity" ? hit.body : hit.encoded[encoding];
    if (encoded === undefined && encoding !== "identity") {
      encoded = compress(hit.body, encoding, effort);
      cache.addEncoding(key, hit, encoding, encoded);
    }
    return finishEncoded(req, 200, encoded ?? hit.body, encoding, route, headers);
  }

  /** The dataset states and the newest forecast run, recomputed only when the datasets change. */
  let statesOf:
    | { generation: number; states: ReturnType<DatasetRegistry["list"]>; newestRunTime: string | undefined; tagPrefixes: Map<string, string> }
    | undefined;
  function currentStates(): NonNullable<typeof statesOf> {
    const generation = deps.registry.generation;
    if (statesOf?.generation !== generation) {
      const states = deps.registry.list();
      statesOf = { generation, states, newestRunTime: newestRunTimeOf(states.find((s) => s.name === "forecast")), tagPrefixes: new Map() };
    }
    return statesOf;
  }

  function fail(req: AppRequest, err: ApiError, route: string): AppResponse {
    return finish(req, err.status, errorBody(err.status, err.message), route, err.headers);
  }

  function failed(req: AppRequest, err: unknown, route: string): AppResponse {
    if (err instanceof ApiError) return fail(req, err, route);
    // Unknown faults: a generic 500 for the client, the details (with stack) for the log.
    deps.logger.error("unhandled error", { route, err });
    return fail(req, errors.internal(), route);
  }

  return function app(req: AppRequest): AppResponse | Promise<AppResponse> {
    let route = "unknown";
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

      if (path === "/health") {
        route = "/health";
        const datasets = deps.registry.list();
        const healthy = datasets.every((d) => d.status === "ready");
        return finish(req, 200, successBody(200, {
          service: "geodata",
          state: healthy ? "ready" : "degraded",
          startedAt: startedAt.toISOString(),
          uptimeSeconds: Math.round((now().getTime() - startedAt.getTime()) / 1000),
          datasets,
        }), route);
      }
      if (path === "/openapi.json") {
        route = "/openapi.json";
        // Serialized and compressed once (respond.ts staticBody), not per request.
        openapiBody ??= staticBody(Buffer.from(JSON.stringify(deps.openapi()), "utf8"));
        return finish(req, 200, openapiBody, route, { "Cache-Control": "public, max-age=3600" });
      }

      const key = apiKeyOf(req.headers);
      const page = deps.docs?.(path);
      if (page) {
        route = "docs";
        const encoding = encodingFor(req, page.body);
        const etag = encoding === "identity" ? page.etag : `${page.etag.slice(0, -1)}-${encoding}"`;
        const hit = ifNoneMatchHits(headerValue(req.headers, "if-none-match"), etag);
        return finish(req, hit ? 304 : 200, hit ? Buffer.alloc(0) : page.body, route, { "Content-Type": page.contentType, "Cache-Control": page.cacheControl, ETag: etag });
      }
      if (!deps.keys.isValid(key)) throw errors.unauthorized();
      if (deps.rateLimiter && key !== undefined) {
        const decision = deps.rateLimiter.take(key);
        rateHeaders.set(req, decision.headers);
        if (!decision.allowed) {
          if (byPath.has(path)) route = path;
          const { requests, windowSeconds } = deps.rateLimiter.config;
          throw errors.rateLimited(requests, windowSeconds, decision.retryAfterSeconds, {});
        }
      }

      const endpoint = byPath.get(path);
      if (!endpoint) throw errors.unknownPath(path);
      route = endpoint.path;

      const params = endpoint.parse(new Query(searchParams, endpoint.params));

      const unavailable = endpoint.datasets.filter((d) => !deps.registry.isReady(d));
      if (unavailable.length > 0) throw errors.datasetUnavailable(unavailable);
      const data = {} as Record<string, unknown>;
      for (const d of endpoint.datasets) data[d] = deps.registry.get(d);
      for (const d of endpoint.optionalDatasets ?? []) if (deps.registry.isReady(d)) data[d] = deps.registry.get(d);

      // The states of the datasets just taken (same tick): a reload cannot slip in between.
      const { states, newestRunTime, generation, tagPrefixes } = currentStates();
      const instant = now();
      const policy = CACHE_POLICY[route];
      const cache = deps.responseCache;
      let cacheKey: string | undefined;
      if (cache?.enabled && policy !== undefined && policy !== "instant") {
        cacheKey = `${route} ${cacheBucket(policy, instant) ?? ""} ${JSON.stringify(params)}`;
        const hit = cache.get(cacheKey, generation);
        if (hit) return answerCached(req, cache, cacheKey, hit, route, cacheControl(policy, instant, newestRunTime));
      }
      const secondCache = deps.secondCache;
      const second = Math.floor(instant.getTime() / 1000);
      // The key of an answer of this second worth keeping (asked for before in the second), if any.
      let secondKey: string | undefined;
      if (secondCache?.enabled && policy === "instant") {
        const key = `${route} ${JSON.stringify(params)}`;
        const hit = secondCache.get(key, second, generation);
        if (hit) return answerCached(req, secondCache, key, hit, route, cacheControl(policy, instant, newestRunTime));
        if (secondCache.admits(key, second, generation)) secondKey = key;
      }
      const complete = (result: HandlerResult): AppResponse => {
        const parts = "contentParts" in result ? successParts(result.contentParts) : undefined;
        // The body in one buffer; for parts only when it is sent as it is or kept (a spliced gzip needs none).
        let whole: Buffer | undefined;
        const body = (): Buffer => (whole ??= wholeBody(result, parts));
        if (policy === undefined) return finish(req, 200, body(), route, result.headers);
        // The datasets an endpoint uses are the same for every request of one generation.
        let prefix = tagPrefixes.get(route);
        if (prefix === undefined) {
          prefix = tagPrefix((apiTag ??= apiTagOf(deps.openapi())), route, states.filter((s) => s.name in data));
          tagPrefixes.set(route, prefix);
        }
        const caching = cacheHeadersAfter(prefix, { kind: policy, params, encoding: "identity", now: instant, newestRunTime });
        if (cache !== undefined && cacheKey !== undefined) {
          // Stored under the generation read before the handler ran: a reload during an awaited
          // handler makes the entry stale at once rather than late.
          // A body joined from parts is cut from a shared slab (body-parts.ts joinParts): kept, it is copied out.
          const entry: CachedAnswer = { body: parts === undefined ? body() : Buffer.from(body()), headers: { ...result.headers }, etag: caching.ETag, encoded: {} };
          cache.set(cacheKey, generation, entry);
          return answerCached(req, cache, cacheKey, entry, route, caching["Cache-Control"]);
        }
        if (secondCache !== undefined && secondKey !== undefined) {
          // Copied out of the slab of bodies sent once (body-parts.ts), as for the response cache.
          const entry: CachedAnswer = { body: parts === undefined ? body() : Buffer.from(body()), headers: { ...result.headers }, etag: caching.ETag, encoded: {} };
          if (parts !== undefined) {
            entry.spliced = true;
            if (entry.body.byteLength > COMPRESSION_THRESHOLD_BYTES && negotiateSplicedEncoding(headerValue(req.headers, "accept-encoding")) === "gzip") entry.encoded.gzip = Buffer.from(gzipParts(parts));
          }
          secondCache.set(secondKey, second, generation, entry);
          return answerCached(req, secondCache, secondKey, entry, route, caching["Cache-Control"]);
        }
        let encoding: Encoding;
        if (parts === undefined) encoding = encodingFor(req, body());
        else {
          // Parts are spliced into gzip rather than compressed whole (body-parts.ts); they are
          // measured only for a client that takes a coding.
          const spliced = negotiateSplicedEncoding(headerValue(req.headers, "accept-encoding"));
          encoding = spliced !== "identity" && partsLongerThan(parts, COMPRESSION_THRESHOLD_BYTES) ? spliced : "identity";
        }
        const headers = { ...result.headers, ETag: encodedTag(caching.ETag, encoding), "Cache-Control": caching["Cache-Control"] };
        const hit = ifNoneMatchHits(headerValue(req.headers, "if-none-match"), headers.ETag);
        if (hit) return finishEncoded(req, 304, Buffer.alloc(0), "identity", route, headers);
        const encoded = parts !== undefined && encoding === "gzip" ? gzipParts(parts) : compress(body(), encoding);
        return finishEncoded(req, 200, encoded, encoding, route, headers);
      };
      const memo = cache?.enabled
        ? <T>(key: string, bytes: (value: Awaited<T>) => number, compute: () => T, fresh?: (value: Awaited<T>) => boolean): T =>
            cache.memo(`${route} ${key}`, generation, bytes, compute, fresh)
        : undefined;
      const result = endpoint.handle(params, data as unknown as LoadedDatasets, memo ? { now: instant, memo } : { now: instant });
      if (!(result instanceof Promise)) return complete(result);
      const routeNow = route;
      return result.then(complete).catch((err: unknown) => failed(req, err, routeNow));
    } catch (err) {
      return failed(req, err, route);
    }
  };
}
