/**
 * The HTTP core as a function from a request to a response, with no socket in sight: tests call
 * it in-process, and server/http/node-server.ts adapts it to node:http. It is a stack of layers
 * (exchange.ts), each a file of its own, outermost first; the order of the checks is the one of
 * docs/decisions.md "Order of checks".
 */
import type { Logger } from "../../datasets/common/log.ts";
import type { DatasetRegistry } from "../datasets/registry.ts";
import type { DocsAsset } from "../docs-page/docs-page.ts";
import type { Endpoint } from "../endpoints/endpoint.ts";
import type { LoadedDatasets } from "../endpoints/loaded-datasets.ts";
import type { KeyChecker } from "./auth.ts";
import { authenticate } from "./authenticate.ts";
import { apiTagOf } from "./cache.ts";
import { freshness, keep, validator } from "./caching.ts";
import { compression } from "./compression.ts";
import { conditional } from "./conditional.ts";
import type { CorsOrigins } from "./cors.ts";
import { after, compose, type Answer, type App, type AppResponse, type Exchange } from "./exchange.ts";
import { failure } from "./failure.ts";
import { finish } from "./finish.ts";
import { limit } from "./limit.ts";
import { publicPaths } from "./public-paths.ts";
import type { RateLimiter } from "./rate-limit.ts";
import { requestChecks } from "./request-checks.ts";
import { servingFaults } from "./serving-faults.ts";
import type { ResponseCache } from "./response-cache.ts";
import { parse, route } from "./route.ts";
import { wireAnswer } from "./wire.ts";

export type { App, AppRequest, AppResponse } from "./exchange.ts";
export { MAX_URL_BYTES } from "./request-checks.ts";

export interface AppDeps {
  endpoints: readonly Endpoint[];
  registry: DatasetRegistry<LoadedDatasets>;
  keys: Pick<KeyChecker, "isValid">;
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

export function createApp(deps: AppDeps): App {
  const now = deps.now ?? (() => new Date());
  const corsOrigins = deps.corsOrigins ?? "*";
  let apiTag: string | undefined;
  const answer = compose(
    [
      conditional, // If-None-Match → 304, on the ETag that names the coding
      compression, // the coding, chosen once; the bytes are made in finish
      failure(deps.logger), // errors as answers
      servingFaults(deps.registry), // a dataset's damaged bytes: reported, 503
      requestChecks(corsOrigins, deps.isShuttingDown ?? (() => false)), // Host, Expect, 414, 413, preflight, 405, 503, target
      publicPaths({ registry: deps.registry, openapi: deps.openapi, startedAt: deps.startedAt ?? now(), isDraining: deps.isDraining ?? (() => false), ...(deps.docs ? { docs: deps.docs } : {}) }),
      route(deps.endpoints), // which endpoint (a foreign one may take its key from the query)
      authenticate(deps.keys), // 401
      limit(deps.rateLimiter), // 429
      parse(deps.registry), // 404, 400, 503, the datasets
      freshness, // Cache-Control
      keep(deps.responseCache), // the response cache
      validator(() => (apiTag ??= apiTagOf(deps.openapi()))), // ETag
    ],
    (x) => after(x.endpoint!.handle(x.params, x.data!, { now: x.now }), wireAnswer, x),
  );
  const finished = (a: Answer, x: Exchange): AppResponse => finish(x, a, corsOrigins);
  return (req) => {
    const x: Exchange = { req, now: now(), route: "unknown", path: "", query: EMPTY_QUERY };
    return after(answer(x), finished, x);
  };
}

const EMPTY_QUERY = new URLSearchParams();
