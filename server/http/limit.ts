/**
 * The per-key rate limit (429), when GEODATA_RATE_LIMIT sets one: every answer from here on carries
 * the RateLimit headers (finish.ts adds them), a refused one Retry-After too.
 */
import { errors } from "../api/api-error.ts";
import type { Layer } from "./exchange.ts";
import type { RateLimiter } from "./rate-limit.ts";

export function limit(limiter: RateLimiter | undefined): Layer {
  if (limiter === undefined) return (x, next) => next(x);
  return (x, next) => {
    if (x.key === undefined) return next(x);
    const decision = limiter.take(x.key);
    x.rate = decision.headers;
    if (!decision.allowed) {
      if (x.endpoint !== undefined) x.route = x.endpoint.path;
      throw errors.rateLimited(limiter.config.requests, limiter.config.windowSeconds, decision.retryAfterSeconds, {});
    }
    return next(x);
  };
}
