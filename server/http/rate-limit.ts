/**
 * Optional per-key request limits (GEODATA_RATE_LIMIT, e.g. `100/60s`; off by default): one token
 * bucket per API key holding `requests` tokens, refilled continuously at `requests / window`
 * tokens per second, so a key may burst up to the whole quota and then gets the average rate.
 *
 * Answers carry the fields of the IETF draft "RateLimit header fields for HTTP"
 * (draft-ietf-httpapi-ratelimit-headers-10/-11, Structured Fields):
 *   RateLimit-Policy: "per-key";q=100;w=60     the quota and its window, seconds
 *   RateLimit: "per-key";r=42;t=35             whole tokens left; seconds until the bucket is full
 * and a refused request is a 429 with Retry-After (seconds until one token is back).
 *
 * Per process: each process keeps its own buckets. With n cluster workers, `shares` = n divides
 * the quota (each one's bucket holds floor(requests / n), at least 1), so the whole process group
 * never lets a key exceed the configured rate (unless the quota is smaller than n); a single
 * keep-alive client, whose connection stays on one worker, gets a share only. Several replicas
 * each hold the whole quota: limit at the balancer (docs/deploy.md).
 *
 * Only valid keys reach the limiter (the key is checked first), so the number of buckets is
 * bounded by the number of configured keys.
 */

export const POLICY_NAME = "per-key";

export interface RateLimitConfig {
  requests: number;
  windowSeconds: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Response headers: RateLimit-Policy and RateLimit, plus Retry-After when refused. */
  headers: Record<string, string>;
  /** Seconds until a request would be allowed (0 when allowed). */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  /** Milliseconds (monotonic clock) of the last refill. */
  at: number;
}

export class RateLimiter {
  readonly capacity: number;
  /** Tokens per millisecond. */
  private readonly rate: number;
  private readonly buckets = new Map<string, Bucket>();
  private readonly policy: string;

  /** `shares`: how many processes share the quota (the cluster workers); each bucket holds floor(requests / shares), at least 1. */
  constructor(
    readonly config: RateLimitConfig,
    shares = 1,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.capacity = Math.max(1, Math.floor(this.config.requests / Math.max(1, shares)));
    this.rate = this.capacity / (this.config.windowSeconds * 1000);
    this.policy = `"${POLICY_NAME}";q=${this.capacity};w=${this.config.windowSeconds}`;
  }

  /** Whole seconds (rounded up) to refill `tokens`; milliseconds rounded first against float noise. */
  private secondsFor(tokens: number): number {
    return Math.ceil(Math.round(tokens / this.rate) / 1000);
  }

  /** Takes one token from the key's bucket if it has one. */
  take(key: string): RateDecision {
    const now = this.clock();
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, at: now };
    bucket.tokens = Math.min(this.capacity, bucket.tokens + (now - bucket.at) * this.rate);
    bucket.at = now;
    this.buckets.set(key, bucket);
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    const untilFull = this.secondsFor(this.capacity - bucket.tokens);
    const retryAfterSeconds = allowed ? 0 : Math.max(1, this.secondsFor(1 - bucket.tokens));
    const headers: Record<string, string> = {
      "RateLimit-Policy": this.policy,
      RateLimit: `"${POLICY_NAME}";r=${Math.floor(bucket.tokens)};t=${untilFull}`,
    };
    if (!allowed) headers["Retry-After"] = String(retryAfterSeconds);
    return { allowed, headers, retryAfterSeconds };
  }
}
