/**
 * How long an endpoint's answer stays true, declared by the endpoint itself (Endpoint.cache) and
 * turned into Cache-Control, ETag and response-cache keys by server/http/cache.ts:
 *
 * - `release`: changes only with a new build of its datasets (elevation, place search).
 * - `forecast`: changes when a new forecast run is loaded, and when the point's local day turns
 *   (its slots start at the local day's start).
 * - `observations`: new reports arrive every few minutes upstream; one answer per station, a
 *   bounded set sent many times (kept answers are compressed harder once).
 * - `instant`: the answer carries the request's instant (local times, the current hour): its bytes
 *   change every second, so it is validated weakly, per minute, and never kept.
 *
 * An endpoint without a policy answers `Cache-Control: no-store` and no ETag.
 */
export type CachePolicyKind = "release" | "forecast" | "observations" | "instant";
