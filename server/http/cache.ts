/**
 * HTTP caching of successful answers (RFC 9110 §8.8.3 ETag, §13.1.2 If-None-Match; RFC 9111
 * Cache-Control). Each endpoint has a policy fitting how long its data stays true:
 *
 * - `release`: the answer changes only with a new build of its datasets (elevation, place search):
 *   a strong ETag, cacheable for a day.
 * - `forecast`: the answer changes when a new forecast run is loaded, and when the point's local
 *   day turns (its slots start at the local day's start): a strong ETag that includes the UTC
 *   quarter hour (every UTC offset is a whole number of quarter hours, so a local midnight never
 *   falls inside one), cacheable until the next run is due (newest run + cycle + publication
 *   delay) or the end of the quarter hour, whichever comes first.
 * - `observations`: new reports arrive every few minutes upstream: a strong ETag, 5 minutes.
 * - `instant`: the answer carries the request's instant (administrative.timezone times, the
 *   current forecast hour). Its bytes change every second, so a strong validator would be a lie;
 *   it gets a weak ETag that changes every minute and a max-age up to the end of that minute.
 *
 * The ETag is a digest of the API description (a change of documented behaviour changes it),
 * the endpoint, the release of every dataset the answer used (format version, build time and
 * release id),
 * the normalized query (the parsed, typed parameters, so `lat=52.50` and `lat=52.5` share one
 * ETag), the minute for `instant`, and, as a suffix, the content coding: the br, gzip and
 * identity bytes are different representations and must not share a strong validator.
 */
import { hash } from "node:crypto";
import type { DatasetState } from "../datasets/registry.ts";
import { KEPT_BROTLI_QUALITY, KEPT_GZIP_LEVEL, type CompressionEffort, type Encoding } from "./respond.ts";

export type CachePolicyKind = "release" | "forecast" | "observations" | "instant";

export const RELEASE_MAX_AGE_SECONDS = 86_400;
export const OBSERVATIONS_MAX_AGE_SECONDS = 300;
/** Forecast answers depend on the local date: they are valid at most to the end of the UTC quarter hour. */
export const FORECAST_BUCKET_SECONDS = 900;
/** GFS, the one model ingested, runs every 6 hours (00, 06, 12, 18 UTC). */
export const FORECAST_CYCLE_HOURS = 6;
/** GFS's last step files are published about 4.5 hours after the cycle; 5 leaves room for ingest. */
export const FORECAST_PUBLICATION_DELAY_HOURS = 5;
export const INSTANT_BUCKET_SECONDS = 60;

/** The policy of each endpoint; a path not listed is not cached (no-store). */
export const CACHE_POLICY: Readonly<Record<string, CachePolicyKind>> = {
  "/weather/point/2/json": "forecast",
  "/geocode/reverse/2/json": "instant",
  "/weather/METAR/2/json": "observations",
  "/weather/SYNOP/2/json": "observations",
  "/geocode/search/2/json": "release",
  "/elevation/point/2/json": "release",
  "/geocode/id/2/json": "instant",
  "/weather/id/2/json": "instant",
};

/** What the OpenAPI document and the README say of each policy. */
export const CACHE_POLICY_TEXT: Readonly<Record<CachePolicyKind, string>> = {
  release: `Cache-Control: public, max-age=${RELEASE_MAX_AGE_SECONDS} (the answer changes only with a new build of the datasets); strong ETag.`,
  forecast: `Cache-Control: public, max-age until the next forecast run is due (newest run + ${FORECAST_CYCLE_HOURS} h cycle + ${FORECAST_PUBLICATION_DELAY_HOURS} h publication delay) or the end of the current UTC quarter hour (the slots start at the point's local day, which turns on a quarter hour), whichever comes first, at least 1 s; strong ETag (it changes with the quarter hour).`,
  observations: `Cache-Control: public, max-age=${OBSERVATIONS_MAX_AGE_SECONDS} (reports arrive every few minutes); strong ETag.`,
  instant: `The answer carries the request's instant: Cache-Control: public, max-age up to the end of the current UTC minute (1 to ${INSTANT_BUCKET_SECONDS} s) and a weak ETag (W/) that changes every minute.`,
};

export interface CacheInput {
  kind: CachePolicyKind;
  /** A digest of the API description, computed once. */
  apiTag: string;
  route: string;
  /** The datasets the answer used (required, and optional ones that were loaded). */
  datasets: readonly DatasetState[];
  /** The parsed, typed parameters: the normalized query. */
  params: unknown;
  encoding: Encoding;
  now: Date;
  /** Newest forecast run time (ISO), for the `forecast` policy. */
  newestRunTime?: string;
}

export interface CacheHeaders {
  ETag: string;
  "Cache-Control": string;
}

function forecastMaxAge(newestRunTime: string | undefined, now: Date): number {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const toBucketEnd = FORECAST_BUCKET_SECONDS - (nowSeconds % FORECAST_BUCKET_SECONDS);
  const run = newestRunTime ? Date.parse(newestRunTime) : NaN;
  if (!Number.isFinite(run)) return toBucketEnd;
  const due = run + (FORECAST_CYCLE_HOURS + FORECAST_PUBLICATION_DELAY_HOURS) * 3_600_000;
  // An overdue run (the loaded data is older than the next run would be) changes on reload only.
  const toDue = Math.floor((due - now.getTime()) / 1000);
  return toDue > 0 ? Math.min(toDue, toBucketEnd) : toBucketEnd;
}

/** The bucket of the answer's instant that its validator includes (null: none). */
export function cacheBucket(kind: CachePolicyKind, now: Date): number | null {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  return kind === "instant" ? Math.floor(nowSeconds / INSTANT_BUCKET_SECONDS) : kind === "forecast" ? Math.floor(nowSeconds / FORECAST_BUCKET_SECONDS) : null;
}

/** Cache-Control of an answer of this policy at `now`. */
export function cacheControl(kind: CachePolicyKind, now: Date, newestRunTime?: string): string {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  let maxAge: number;
  switch (kind) {
    case "release":
      maxAge = RELEASE_MAX_AGE_SECONDS;
      break;
    case "observations":
      maxAge = OBSERVATIONS_MAX_AGE_SECONDS;
      break;
    case "forecast":
      maxAge = forecastMaxAge(newestRunTime, now);
      break;
    case "instant":
      maxAge = INSTANT_BUCKET_SECONDS - (nowSeconds % INSTANT_BUCKET_SECONDS);
      break;
  }
  return `public, max-age=${maxAge}`;
}

/** The entity tag of a content coding of the answer whose identity tag is `identityTag`. */
export function encodedTag(identityTag: string, encoding: Encoding, effort: CompressionEffort = "per-request"): string {
  if (encoding === "identity") return identityTag;
  // The harder levels give other bytes: another representation, another strong validator.
  const level = effort === "kept" ? (encoding === "br" ? KEPT_BROTLI_QUALITY : KEPT_GZIP_LEVEL) : "";
  return `${identityTag.slice(0, -1)}-${encoding}${level}"`;
}

/**
 * The start of the text the ETag digests: the API description's tag, the route and the releases
 * of the datasets used. It is the same for every request of the route while the same datasets
 * serve, so callers keep it per route and generation (app.ts).
 */
export function tagPrefix(apiTag: string, route: string, datasets: readonly DatasetState[]): string {
  const releases = datasets.map((d) => `${d.name}@${d.formatVersion}@${d.builtAt ?? ""}@${d.release ?? ""}`);
  return `[${JSON.stringify(apiTag)},${JSON.stringify(route)},${JSON.stringify(releases)},`;
}

export function cacheHeaders(input: CacheInput): CacheHeaders {
  return cacheHeadersAfter(tagPrefix(input.apiTag, input.route, input.datasets), input);
}

/** cacheHeaders with its tagPrefix kept by the caller. */
export function cacheHeadersAfter(prefix: string, input: Pick<CacheInput, "kind" | "params" | "encoding" | "now" | "newestRunTime">): CacheHeaders {
  // The text is JSON.stringify([apiTag, route, releases, params, bucket]).
  const text = `${prefix}${JSON.stringify(input.params) ?? "null"},${JSON.stringify(cacheBucket(input.kind, input.now))}]`;
  const digest = hash("sha256", text, "base64url").slice(0, 27);
  const tag = encodedTag(`"${digest}"`, input.encoding);
  return { ETag: input.kind === "instant" ? `W/${tag}` : tag, "Cache-Control": cacheControl(input.kind, input.now, input.newestRunTime) };
}

/**
 * If-None-Match (RFC 9110 §13.1.2): `*`, or a list of entity tags compared weakly (W/ ignored on
 * both sides). True when the client's copy is current, i.e. the answer is a 304.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const trimmed = header.trim();
  if (trimmed === "*") return true;
  const opaque = (t: string): string => t.trim().replace(/^W\//, "");
  const mine = opaque(etag);
  // Splitting on commas is safe for our tags (base64url); a foreign tag with a comma just never matches.
  return trimmed.split(",").some((t) => opaque(t) === mine);
}

/** A short digest of the API description (changes when documented behaviour changes). */
export function apiTagOf(openapi: unknown): string {
  return hash("sha256", JSON.stringify(openapi), "base64url").slice(0, 16);
}

/** The newest run time among the forecast dataset's models (from its /health facts), if any. */
export function newestRunTimeOf(forecast: DatasetState | undefined): string | undefined {
  const models = forecast?.facts?.models;
  if (!Array.isArray(models)) return undefined;
  let newest: string | undefined;
  for (const m of models as Array<{ runs?: unknown }>) {
    const first = Array.isArray(m.runs) ? m.runs[0] : undefined;
    if (typeof first === "string" && (newest === undefined || first > newest)) newest = first;
  }
  return newest;
}
