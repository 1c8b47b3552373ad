/**
 * HTTP caching of successful answers (RFC 9110 §8.8.3 ETag, §13.1.2 If-None-Match; RFC 9111
 * Cache-Control). Each endpoint declares its policy (Endpoint.cache, server/api/cache-policy.ts);
 * this module turns a policy into headers and keys:
 *
 * - `release`: a strong ETag, cacheable for a day.
 * - `forecast`: a strong ETag that includes the UTC quarter hour (every UTC offset is a whole
 *   number of quarter hours, so a local midnight never falls inside one), cacheable until the next
 *   run of a loaded model is due (its next cycle, from the run hours the forecast artifact records
 *   for each model, plus the publication delay) or the end of the quarter hour, whichever comes first.
 * - `observations`: a strong ETag, 5 minutes.
 * - `instant`: a weak ETag that changes every minute and a max-age up to the end of that minute.
 *
 * The ETag is a digest of the API description (a change of documented behaviour changes it),
 * the endpoint, the release of every dataset the answer used (format version, build time and
 * release id), the normalized query (the parsed, typed parameters serialized once per request, so
 * `lat=52.50` and `lat=52.5` share one ETag), the bucket of `forecast` and `instant`, and, as a
 * suffix, the content coding: the br, gzip and identity bytes are different representations and
 * must not share a strong validator.
 */
import { hash } from "node:crypto";
import type { CachePolicyKind } from "../api/cache-policy.ts";
import type { DatasetState } from "../datasets/registry.ts";
import { KEPT_BROTLI_QUALITY, KEPT_GZIP_LEVEL, type CompressionEffort, type Encoding } from "./respond.ts";
import { fnv1a } from "./fnv1a.ts";

export const RELEASE_MAX_AGE_SECONDS = 86_400;
export const OBSERVATIONS_MAX_AGE_SECONDS = 300;
/** Forecast answers depend on the local date: they are valid at most to the end of the UTC quarter hour. */
export const FORECAST_BUCKET_SECONDS = 900;
/** A cycle's last step files are published about 4.5 hours after it (GFS); 5 leaves room for ingest. */
export const FORECAST_PUBLICATION_DELAY_HOURS = 5;
export const INSTANT_BUCKET_SECONDS = 60;

/** What the OpenAPI document says of each policy. */
export const CACHE_POLICY_TEXT: Readonly<Record<CachePolicyKind, string>> = {
  release: `Cache-Control: public, max-age=${RELEASE_MAX_AGE_SECONDS} (the answer changes only with a new build of the datasets); strong ETag.`,
  forecast: `Cache-Control: public, max-age until the next run of a loaded model is due (its next cycle after its newest run, from the model's run hours, + ${FORECAST_PUBLICATION_DELAY_HOURS} h publication delay) or the end of the current UTC quarter hour (the slots start at the point's local day, which turns on a quarter hour), whichever comes first, at least 1 s; strong ETag (it changes with the quarter hour).`,
  observations: `Cache-Control: public, max-age=${OBSERVATIONS_MAX_AGE_SECONDS} (reports arrive every few minutes); strong ETag.`,
  instant: `The answer carries the request's instant: Cache-Control: public, max-age up to the end of the current UTC minute (1 to ${INSTANT_BUCKET_SECONDS} s) and a weak ETag (W/) that changes every minute.`,
};

/** The bucket of the answer's instant that its validator and cache key include (null: none). */
export function cacheBucket(kind: CachePolicyKind, now: Date): number | null {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  return kind === "instant" ? Math.floor(nowSeconds / INSTANT_BUCKET_SECONDS) : kind === "forecast" ? Math.floor(nowSeconds / FORECAST_BUCKET_SECONDS) : null;
}

/**
 * Cache-Control of an answer of this policy at `now`. `runsDue`: when each loaded forecast
 * model's next run is due (epoch ms, forecastRunsDue), for `forecast`.
 */
export function cacheControl(kind: CachePolicyKind, now: Date, runsDue: readonly number[] = []): string {
  const nowMs = now.getTime();
  const nowSeconds = Math.floor(nowMs / 1000);
  if (kind === "release") return `public, max-age=${RELEASE_MAX_AGE_SECONDS}`;
  if (kind === "observations") return `public, max-age=${OBSERVATIONS_MAX_AGE_SECONDS}`;
  if (kind === "instant") return `public, max-age=${INSTANT_BUCKET_SECONDS - (nowSeconds % INSTANT_BUCKET_SECONDS)}`;
  let maxAge = FORECAST_BUCKET_SECONDS - (nowSeconds % FORECAST_BUCKET_SECONDS);
  // A model whose next run is overdue (sample runs years old) changes on reload only.
  for (const due of runsDue) {
    const toDue = Math.floor((due - nowMs) / 1000);
    if (toDue > 0 && toDue < maxAge) maxAge = toDue;
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
 * The start of the text the ETag's digest covers: the API description's tag, the route and the
 * releases of the datasets used. It is the same for every request of the route while the same
 * datasets serve, so callers keep it per route and generation.
 */
export function tagPrefix(apiTag: string, route: string, datasets: readonly DatasetState[]): string {
  const releases = datasets.map((d) => `${d.name}@${d.formatVersion}@${d.builtAt ?? ""}@${d.release ?? ""}`);
  return `[${JSON.stringify(apiTag)},${JSON.stringify(route)},${JSON.stringify(releases)},`;
}

/**
 * The digest part of an ETag: SHA-256 of JSON.stringify([apiTag, route, releases, bucket]),
 * base64url, 22 characters. It is the same for every request of a route in one generation and
 * cache bucket, so callers keep it: no digest is taken per request.
 */
export function tagDigest(prefix: string, bucket: number | null): string {
  return hash("sha256", `${prefix}${JSON.stringify(bucket)}]`, "base64url").slice(0, 22);
}

/**
 * The identity ETag: the route's digest (tagDigest) followed by the FNV-1a hash (32 bits, base 36,
 * 7 digits) of the parameters' JSON text, so that two queries of a route get two tags. The hash
 * needs no strength: a tag is only ever compared with the tags of its own URL (RFC 9110 §8.8.3),
 * whose parameters are the same, so a collision would only give two URLs one tag, which HTTP
 * allows. Weak (`W/`) for instant answers.
 */
export function identityTag(digest: string, kind: CachePolicyKind, paramsJson: string): string {
  const tag = `${digest}${fnv1a(paramsJson).toString(36).padStart(7, "0")}`;
  return kind === "instant" ? `W/"${tag}"` : `"${tag}"`;
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

interface ModelFacts {
  runs?: unknown;
  runHours?: unknown;
}

function modelsOf(forecast: DatasetState | undefined): ModelFacts[] {
  const models = forecast?.facts?.models;
  return Array.isArray(models) ? (models as ModelFacts[]) : [];
}

/** The newest run time among the forecast dataset's models (from its /health facts), if any. */
export function newestRunTimeOf(forecast: DatasetState | undefined): string | undefined {
  let newest: string | undefined;
  for (const m of modelsOf(forecast)) {
    const first = Array.isArray(m.runs) ? m.runs[0] : undefined;
    if (typeof first === "string" && (newest === undefined || first > newest)) newest = first;
  }
  return newest;
}

/**
 * When each loaded model's next run is due (epoch ms): the first of its run hours (UTC, recorded
 * in the forecast artifact) after its newest run, plus the publication delay. A model whose
 * artifact records no run hours is left out (its answers are bounded by the quarter hour only).
 */
export function forecastRunsDue(forecast: DatasetState | undefined): number[] {
  const due: number[] = [];
  for (const m of modelsOf(forecast)) {
    const run = Array.isArray(m.runs) && typeof m.runs[0] === "string" ? Date.parse(m.runs[0]) : NaN;
    const hours = Array.isArray(m.runHours) ? m.runHours.filter((h): h is number => typeof h === "number" && h >= 0 && h < 24) : [];
    if (!Number.isFinite(run) || hours.length === 0) continue;
    const day = run - (run % 86_400_000);
    // The next cycle strictly after the run: a later hour the same day, else the first one the next day.
    const later = hours.map((h) => day + h * 3_600_000).filter((t) => t > run);
    const next = later.length > 0 ? Math.min(...later) : day + 86_400_000 + Math.min(...hours) * 3_600_000;
    due.push(next + FORECAST_PUBLICATION_DELAY_HOURS * 3_600_000);
  }
  return due;
}
