/**
 * The caching layers of an endpoint that declares a policy (Endpoint.cache), outermost first:
 *
 * - `freshness`: serializes the parameters once (the key and the ETag read the same text) and
 *   gives a 200 its Cache-Control and the endpoint's instant headers (Endpoint.instantHeaders),
 *   per request (they depend on the instant), and `Vary: X-Api-Key`.
 * - `keep`: the response cache (response-cache.ts): a kept answer is returned as it is, with its
 *   ETag and its compressed copies, and a kept template (an answer that carries the instant) with
 *   its instant's pieces written at the request's (its other parts joined on its first hit); a
 *   miss runs the layers inside and keeps the answer on the second request for its key. Endpoints
 *   declared `kept: false` pass by.
 * - `validator`: the identity ETag of a new answer (cache.ts identityTag); its digest is taken once
 *   per answer computed, never for a kept one.
 */
import type { DatasetName } from "../../datasets/catalog.ts";
import type { CachePolicyKind } from "../api/cache-policy.ts";
import { ownedBytes } from "../api/owned-bytes.ts";
import { cacheBucket, cacheControl, identityTag, tagDigest, tagPrefix } from "./cache.ts";
import { after, type Answer, type Exchange, type Layer } from "./exchange.ts";
import { atInstant, keptTemplate } from "../api/instant-part.ts";
import { templateBytes, type CachedAnswer, type ResponseCache } from "./response-cache.ts";
import { identityBytes } from "./wire.ts";

export const freshness: Layer = (x, next) => {
  const policy = x.endpoint?.cache;
  if (policy === undefined) return next(x);
  x.policy = policy;
  x.paramsJson = JSON.stringify(x.params) ?? "null";
  return after(next(x), fresh, x);
};

/**
 * Cache-Control, and `Vary: X-Api-Key` (finish.ts puts Accept-Encoding before it): a cacheable
 * answer was given for one key, so a cache (a browser's, a proxy's) keeps it per key, and another
 * key, a wrong one or none gets its own answer (a 401) rather than the copy. `public` then lets a
 * shared cache keep it, per key, as a key in the URL would.
 */
function fresh(a: Answer, x: Exchange): Answer {
  if (a.status === 200) {
    a.headers["Cache-Control"] = cacheControl(x.policy!, x.now, x.states?.runsDue);
    a.headers.Vary = "X-Api-Key";
    x.endpoint!.instantHeaders?.(a.headers, x.now);
  }
  return a;
}

export function keep(cache: ResponseCache | undefined): Layer {
  if (cache === undefined || !cache.enabled) return (x, next) => next(x);
  return (x, next) => {
    const policy = x.policy;
    if (policy === undefined || x.endpoint!.kept === false) return next(x);
    const key = `${x.route} ${cacheBucket(policy, x.now) ?? ""} ${x.paramsJson!}`;
    const hit = cache.get(key, x.states!.generation);
    if (hit !== undefined) {
      if ("template" in hit && !hit.joined) {
        // Joined on the first hit, not when kept: on a mix that seldom repeats most kept answers
        // are never asked again, and the copies would only feed the collector.
        hit.template = keptTemplate(hit.template);
        hit.joined = true;
      }
      const body = "template" in hit ? { parts: atInstant(hit.template, x.now) } : hit.body;
      return { status: 200, headers: { ...hit.headers }, body, encoding: "identity" };
    }
    // Stored under the generation read before the handler ran: a reload during the handler makes
    // the entry stale at once rather than late.
    return after(next(x), stored, { cache, key, generation: x.states!.generation, policy });
  };
}

interface Storing {
  cache: ResponseCache;
  key: string;
  generation: number;
  policy: CachePolicyKind;
}

/**
 * A computed answer, kept when its key was seen before (the cache's admission rule): whole, or as
 * its template when it carries the instant. An instant answer without one is not kept.
 */
function stored(a: Answer, s: Storing): Answer {
  const { cache, key } = s;
  const template = a.body.template;
  if (a.status !== 200 || (template === undefined && s.policy === "instant") || !cache.admits(key)) return a;
  if (template !== undefined) {
    // Bytes in stores of their own: a writer's short run is a view of its whole buffer (owned-bytes.ts).
    const owned = template.map((p) => (Buffer.isBuffer(p) ? ownedBytes(p) : p));
    cache.set(key, s.generation, { headers: { ...a.headers }, template: owned, joined: false, bytes: templateBytes(owned) });
    return a;
  }
  const entry: CachedAnswer = {
    headers: { ...a.headers },
    body: {
      bytes: ownedBytes(identityBytes(a.body)),
      // Station observations are one answer per station, a bounded set sent many times: kept
      // answers are compressed harder once (respond.ts KEPT_BROTLI_QUALITY), and their ETag says so.
      kept: { effort: s.policy === "observations" ? "kept" : "per-request", copies: {}, added: (bytes) => cache.grew(key, entry, bytes) },
    },
  };
  cache.set(key, s.generation, entry);
  return { ...a, body: entry.body };
}

export function validator(apiTag: () => string): Layer {
  /** Per route, for one generation of the datasets: the digest's text prefix, and the digest of the last bucket. */
  let routes = new Map<string, { prefix: string; bucket: number | null; digest: string }>();
  let generation = -1;
  const tag = (a: Answer, x: Exchange): Answer => {
    if (x.policy === undefined || a.status !== 200) return a;
    const states = x.states!;
    if (states.generation !== generation) {
      routes = new Map();
      generation = states.generation;
    }
    const bucket = cacheBucket(x.policy, x.now);
    let route = routes.get(x.route);
    if (route === undefined) {
      const used = x.used as readonly DatasetName[];
      // The datasets an endpoint uses are the same for every request of one generation.
      const prefix = tagPrefix(apiTag(), x.route, states.states.filter((s) => used.includes(s.name)));
      route = { prefix, bucket, digest: tagDigest(prefix, bucket) };
      routes.set(x.route, route);
    } else if (route.bucket !== bucket) {
      route.bucket = bucket;
      route.digest = tagDigest(route.prefix, bucket);
    }
    a.headers.ETag = identityTag(route.digest, x.policy, x.paramsJson!);
    return a;
  };
  return (x, next) => after(next(x), tag, x);
}
