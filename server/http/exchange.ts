/**
 * What the layers of the app (app.ts) pass along: the request as received, an Exchange that the
 * layers fill in on the way in (route, key, parameters, datasets), and the Answer they build on
 * the way out. A layer is hono's middleware shape: `(x, next) => answer`, doing its part before
 * and/or after the layers inside it; `next(x)` runs the layers inside. The chain is built once
 * (compose), and a layer's part after `next` is a function of the answer and the exchange
 * (`after(next(x), f, x)`), so that a request makes no closure per layer. An answer may come back
 * synchronously (a kept answer, a synchronous handler, an error): `after` runs a layer's part on
 * it without a promise then, so a cache hit costs no microtask at all.
 */
import type { DatasetName } from "../../datasets/catalog.ts";
import type { CachePolicyKind } from "../api/cache-policy.ts";
import type { BodyPart } from "../api/body-parts.ts";
import type { TemplatePart } from "../api/instant-part.ts";
import type { DatasetState } from "../datasets/registry.ts";
import type { Endpoint, ForeignApi } from "../endpoints/endpoint.ts";
import type { LoadedDatasets } from "../endpoints/loaded-datasets.ts";
import type { CompressionEffort, Encoding } from "./respond.ts";

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

/** The app: synchronous when every layer and the handler are (a cache hit, an error), else a promise. */
export type App = (req: AppRequest) => Pending<AppResponse>;

/** The datasets' states of one generation, and what follows from them, computed once per generation. */
export interface StatesOf {
  generation: number;
  states: readonly DatasetState[];
  /** When each loaded forecast model's next run is due (epoch ms; cache.ts forecastRunsDue). */
  runsDue: readonly number[];
}

/** One request on its way through the layers. */
export interface Exchange {
  readonly req: AppRequest;
  /** The request's instant, taken once. */
  readonly now: Date;
  /** For the access log: "unknown" until a layer knows better. */
  route: string;
  path: string;
  query: URLSearchParams;
  endpoint?: Endpoint;
  /** The endpoint's foreign API (its error shape), if it speaks one. */
  foreign?: ForeignApi;
  key?: string;
  /** RateLimit headers, added to every answer once the limiter has counted the request. */
  rate?: Readonly<Record<string, string>>;
  params?: unknown;
  /** The parameters as JSON, serialized once: the cache key and the ETag both read it. */
  paramsJson?: string;
  data?: LoadedDatasets;
  /** The datasets the answer uses (required, and optional ones that were loaded). */
  used?: readonly DatasetName[];
  /** The dataset states taken in the same tick as `data`. */
  states?: StatesOf;
  policy?: CachePolicyKind;
}

/** The body of an answer before its coding is chosen. */
export interface Body {
  /** The identity bytes (wire.ts identityBytes joins `parts` into them on first demand). */
  bytes?: Buffer;
  /** The parts of the body: a gzip coding can be spliced from their deflated copies. */
  parts?: readonly BodyPart[];
  /**
   * The parts as the handler gave them, before the pieces that say the instant were written
   * (api/instant-part.ts): what the response cache keeps of an answer that carries the instant.
   */
  template?: readonly TemplatePart[];
  /** Compressed copies kept with the bytes (a response-cache entry), filled on first demand. */
  kept?: KeptCodings;
}

/** Compressed copies of a kept body, and what to tell its keeper when one is added. */
export interface KeptCodings {
  effort: CompressionEffort;
  copies: Partial<Record<Exclude<Encoding, "identity">, Buffer>>;
  added(bytes: number): void;
}

/** An answer on its way out: finished into an AppResponse by the outermost layer (finish.ts). */
export interface Answer {
  status: number;
  /** The answer's own headers (Content-Type when not JSON, ETag, Cache-Control, the handler's). */
  headers: Record<string, string>;
  body: Body;
  /** The coding the client gets (compression.ts decides it once); identity until then. */
  encoding: Encoding;
  /** Set by preflight: sent as it is, without the headers every other answer has. */
  bare?: boolean;
}

export type Pending<T> = T | Promise<T>;
export type Next = (x: Exchange) => Pending<Answer>;
export type Layer = (x: Exchange, next: Next) => Pending<Answer>;

/** `then` for a value that may be a promise: synchronous when it is not. `c` is handed to `f` (no closure needed). */
export function after<T, U, C>(value: Pending<T>, f: (v: T, c: C) => U, c: C): Pending<U> {
  return value instanceof Promise ? value.then((v) => f(v, c)) : f(value, c);
}

/** One layer from an ordered list, outermost first; `last` answers inside the innermost. Built once, not per request. */
export function compose(layers: readonly Layer[], last: Next): Next {
  return layers.reduceRight<Next>((inner, layer) => (x) => layer(x, inner), last);
}

export const EMPTY = Buffer.alloc(0);

/** A JSON answer of `status` with `bytes` as its body. */
export function answerOf(status: number, bytes: Buffer, headers: Record<string, string> = {}): Answer {
  return { status, headers, body: { bytes }, encoding: "identity" };
}

export function headerValue(headers: AppRequest["headers"], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
}
