/**
 * An endpoint: its path, the query parameters it accepts, the datasets it needs, a parser from
 * the query to typed parameters, and a handler that is a pure function of those parameters and
 * the loaded datasets, and the policy of its answers' caching. The layers of server/http/app.ts do
 * everything else: method, key, 503, ETag, compression, the bytes of the envelope.
 */
import type { DatasetName } from "../../datasets/catalog.ts";
import type { LoadedDatasets } from "./loaded-datasets.ts";
import type { Query } from "../api/query.ts";
import type { TemplatePart } from "../api/instant-part.ts";
import type { CachePolicyKind } from "../api/cache-policy.ts";

export interface HandlerContext {
  /** The request's instant (local times, sunrise, "current" forecast hour). */
  now: Date;
}

/** Extra response headers (for example which elevation source answered). */
type ResultHeaders = { headers?: Record<string, string> };

/**
 * What a handler answers, in one of three forms, each with one serializer (http/wire.ts): the
 * envelope's `content` as an object; as JSON text or its UTF-8 bytes (large answers written without
 * intermediate objects, e.g. the weather slots); or as parts (api/body-parts.ts) when most of it
 * repeats across answers (an area's names in 23 languages) and can be compressed once, the
 * pieces that say the instant left unwritten (api/instant-part.ts): then the response cache keeps
 * such an answer too.
 */
export type HandlerResult = ({ content: Record<string, unknown> } | { contentJson: string | Uint8Array | readonly Uint8Array[] } | { contentParts: readonly TemplatePart[] } | ForeignBody) & ResultHeaders;

/** A foreign API's answer (Endpoint.foreign): the whole body, not wrapped in the spec's envelope. */
export interface ForeignBody {
  body: string | Uint8Array;
  contentType: string;
}

/**
 * An endpoint of another API that clients already speak (docs/compatibility.md): its answers
 * are its own (HandlerResult ForeignBody), its errors have its own shape, and its clients may send
 * the key as the `apikey` query parameter (which no access line ever shows).
 */
export interface ForeignApi {
  /** The error body of that API for a status and our message. */
  errorBody(status: number, message: string): Buffer;
}

/** What the OpenAPI document says of an endpoint beyond its path and parameters. */
export interface EndpointDocs {
  /** Markdown: behaviour, units, and the decisions taken where the spec says "not shown". */
  description: string;
  /** JSON Schema of the envelope's `content` on 200. */
  content: Record<string, unknown>;
  /** Extra error statuses this endpoint returns (status → when), beyond 400/401/405/414/503. */
  errors?: Record<string, string>;
  /** Parameter descriptions (name → text), overriding the defaults of PARAMETERS in server/openapi/document.ts. */
  params?: Record<string, string>;
  /** Response headers on 200 (name → description). */
  headers?: Record<string, string>;
  /** For a foreign API's endpoint: `content` is then the schema of the whole 200 body, not the envelope's content. */
  foreign?: ForeignDocs;
}

/** What the OpenAPI document says of a foreign API's bodies. */
export interface ForeignDocs {
  /** JSON Schema of that API's error body. */
  errorSchema: Record<string, unknown>;
  /** Other media types of the 200 body (type → description), e.g. FlatBuffers. */
  mediaTypes?: Record<string, { description: string }>;
}

export interface Endpoint<P = unknown, K extends DatasetName = DatasetName, O extends DatasetName = DatasetName> {
  path: string;
  /** One line for the OpenAPI document and the README. */
  summary: string;
  docs?: EndpointDocs;
  /** Every query parameter the endpoint accepts; any other is a 400. */
  params: readonly string[];
  /** Datasets the endpoint needs: when one is not loaded, the endpoint answers 503 naming it. */
  datasets: readonly K[];
  /** Datasets the endpoint uses when loaded and does without otherwise (undefined in `data`). */
  optionalDatasets?: readonly O[];
  /** How long an answer stays true (api/cache-policy.ts); absent: not cached (no-store). */
  cache?: CachePolicyKind;
  /**
   * False: answers are never kept in the response cache, for an endpoint whose lookup costs what
   * a hit does (Cache-Control and ETag still follow `cache`).
   */
  kept?: false;
  /**
   * Sets the headers of a 200 that depend on its instant, on every answer, a kept one included
   * (the response cache keeps the rest as the handler gave them).
   */
  instantHeaders?: (headers: Record<string, string>, now: Date) => void;
  /** Set for another API's endpoint (ForeignApi); absent for the spec's. */
  foreign?: ForeignApi;
  parse(query: Query): P;
  handle(params: P, data: Pick<LoadedDatasets, K> & Partial<Pick<LoadedDatasets, O>>, ctx: HandlerContext): HandlerResult | Promise<HandlerResult>;
}

/** Keeps the parameter and dataset types of an endpoint while typing it for the route table. */
export function defineEndpoint<P, K extends DatasetName, O extends DatasetName = never>(endpoint: Endpoint<P, K, O>): Endpoint<P, K, O> {
  return endpoint;
}
