/**
 * The OpenAPI 3.1 document served at GET /openapi.json, built from the endpoint definitions so
 * that paths, parameters and the decisions taken where the spec is silent cannot drift apart.
 */
import type { Endpoint } from "../endpoints/endpoint.ts";
import { LIMIT_DEFAULT, LIMIT_MAX, OFFSET_MAX, Q_MAX_CHARS, ID_MAX_CHARS } from "../api/params.ts";
import { MAX_URL_BYTES } from "../http/app.ts";
import type { CachePolicyKind } from "../api/cache-policy.ts";
import { CACHE_POLICY_TEXT } from "../http/cache.ts";
import { SCHEMAS, envelope } from "./schemas.ts";
import { DECISIONS } from "./decisions.ts";

type Schema = Record<string, unknown>;

const PARAMETERS: Record<string, Schema> = {
  lat: { name: "lat", in: "query", required: true, description: "Latitude in decimal degrees, -90 to 90 inclusive. A plain decimal number: no exponent, hex, NaN, Infinity or trailing characters.", schema: { type: "string", pattern: "^[+-]?(\\d+(\\.\\d*)?|\\.\\d+)$", maxLength: 32 }, example: "52.52" },
  lon: { name: "lon", in: "query", required: true, description: "Longitude in decimal degrees, -180 to 180 inclusive; same syntax as lat.", schema: { type: "string", pattern: "^[+-]?(\\d+(\\.\\d*)?|\\.\\d+)$", maxLength: 32 }, example: "13.405" },
  q: { name: "q", in: "query", required: true, description: `Text to search for; trimmed, 1 to ${Q_MAX_CHARS} characters, no control characters.`, schema: { type: "string", minLength: 1, maxLength: Q_MAX_CHARS }, example: "Berlin" },
  limit: { name: "limit", in: "query", required: false, description: `Maximum number of points returned: 0 to ${LIMIT_MAX}, default ${LIMIT_DEFAULT}. 0 returns only the total.`, schema: { type: "integer", minimum: 0, maximum: LIMIT_MAX, default: LIMIT_DEFAULT } },
  offset: { name: "offset", in: "query", required: false, description: `Index of the first result returned, 0 to ${OFFSET_MAX}, default 0. The order is total and deterministic, so paging never repeats or skips a result.`, schema: { type: "integer", minimum: 0, maximum: OFFSET_MAX, default: 0 } },
  id: { name: "id", in: "query", required: true, description: `Identifier; trimmed, 1 to ${ID_MAX_CHARS} characters.`, schema: { type: "string", minLength: 1, maxLength: ID_MAX_CHARS } },
};

const specErrorResponse = (description: string): Schema => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

/** Sent on every answer to a keyed request when GEODATA_RATE_LIMIT is set (server/http/rate-limit.ts). */
const RATE_LIMIT_HEADERS: Record<string, string> = {
  "RateLimit-Policy": 'Only with GEODATA_RATE_LIMIT: the quota of this key, IETF draft syntax, e.g. "per-key";q=100;w=60 (100 requests per 60 s; per cluster worker its share).',
  RateLimit: 'Only with GEODATA_RATE_LIMIT: what is left, e.g. "per-key";r=42;t=35 (42 requests left; the bucket is full again in 35 s).',
};

/** ETag and Cache-Control of an endpoint's 200 and 304 (server/http/cache.ts), empty when it is not cached. */
function cachingHeaders(kind: CachePolicyKind | undefined): Record<string, string> {
  if (!kind) return {};
  return {
    ETag: "Validator of this answer: a digest of the API description, the datasets' build (and the minute for answers carrying the instant), then a hash of the normalized query, suffixed with the content coding (and its level where it is not the per-request one: station observations kept by the response cache end in -br5 or -gzip6). Send it back in If-None-Match to get a 304.",
    "Cache-Control": CACHE_POLICY_TEXT[kind],
    Vary: "`Accept-Encoding, X-Api-Key`: a cache keeps the answer per content coding and per key (a request with another key, or none, is not answered from the copy).",
    ...RATE_LIMIT_HEADERS,
  };
}

/**
 * HEAD of a GET operation: the same parameters, statuses and headers, and no body (RFC 9110
 * §9.3.2), so no content schemas. It refers to the GET for the description: repeating it for
 * each of the eight paths made up 40 % of the document.
 */
function headOperation(get: { operationId: string; summary: string; responses: Record<string, unknown> } & Record<string, unknown>): Record<string, unknown> {
  const responses = Object.fromEntries(
    Object.entries(get.responses).map(([status, response]) => {
      const { description: getDescription, headers } = response as { description: string; headers?: unknown };
      const description = status === "200" ? "Success: the status and headers of the GET's answer, without its body." : getDescription;
      return [status, headers === undefined ? { description } : { description, headers }];
    }),
  );
  return {
    ...get,
    operationId: `${get.operationId}-head`,
    summary: `${get.summary} (headers only)`,
    description: `As GET ${get.operationId} (same parameters, checks, status and headers, Content-Length included), without the body.`,
    responses,
  };
}

export function buildOpenApi(endpoints: readonly Endpoint[]): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const e of endpoints) {
    const docs = e.docs;
    const foreign = docs?.foreign;
    const errorResponse = foreign ? (description: string): Schema => ({ description, content: { "application/json": { schema: foreign.errorSchema } } }) : specErrorResponse;
    const successContent: Record<string, unknown> = { "application/json": { schema: foreign ? (docs?.content ?? { type: "object" }) : envelope(docs?.content ?? { type: "object" }) } };
    for (const [type, { description }] of Object.entries(foreign?.mediaTypes ?? {})) successContent[type] = { schema: { type: "string", format: "binary", description } };
    const responses: Record<string, unknown> = {
      "200": {
        description: foreign ? "Success: the other API's own body (see the description)." : "Success: the envelope with this operation's content.",
        headers: Object.fromEntries(Object.entries({ ...docs?.headers, ...cachingHeaders(e.cache) }).map(([name, description]) => [name, { description, schema: { type: "string" } }])),
        content: successContent,
      },
      "400": errorResponse("Bad input parameter: missing, repeated, unknown, or invalid; the message names the parameter and the value given."),
      "401": errorResponse("Missing or invalid X-Api-Key."),
      // Checked before the path is known (docs/decisions.md "Order of checks"): the spec's error body, also on another API's path.
      "405": specErrorResponse("Method other than GET or HEAD; the Allow header lists GET, HEAD."),
      "413": specErrorResponse("The request carried a body."),
      "429": errorResponse("Only when GEODATA_RATE_LIMIT is set: this key's rate limit is exceeded. Retry-After gives the seconds to wait; RateLimit-Policy and RateLimit (IETF draft) the quota and what is left."),
      "414": specErrorResponse(`Request URL longer than ${MAX_URL_BYTES} bytes.`),
      "503": errorResponse(`A dataset this endpoint needs (${e.datasets.join(", ")}) is not loaded: not built, or it failed its checks at startup.`),
    };
    if (e.cache) responses["304"] = { description: "Not Modified: If-None-Match named the current ETag. No body; the same ETag and Cache-Control as the 200.", headers: Object.fromEntries(Object.entries(cachingHeaders(e.cache)).map(([name, description]) => [name, { description, schema: { type: "string" } }])) };
    for (const [status, when] of Object.entries(docs?.errors ?? {})) responses[status] = errorResponse(when);
    const parameters = e.params.map((p) => {
      const base = PARAMETERS[p] ?? { name: p, in: "query", schema: { type: "string" } };
      const description = docs?.params?.[p];
      return description ? { ...base, description } : base;
    });
    const segments = e.path.split("/").filter(Boolean);
    const operation = {
      // The spec's paths end in /2/json; another API's are named after its path ("compat-v1-forecast").
      operationId: foreign ? `compat-${segments.join("-")}${e.path.endsWith("/") ? "-slash" : ""}` : segments.slice(0, -2).join("-"),
      summary: e.summary,
      description: `${docs?.description ?? ""}\n\nNeeds dataset(s): ${e.datasets.join(", ")}.${e.optionalDatasets?.length ? ` Uses when loaded: ${e.optionalDatasets.join(", ")}.` : ""}`.trim(),
      security: foreign ? [{ ApiKey: [] }, { ApiKeyQuery: [] }] : [{ ApiKey: [] }],
      parameters,
      responses,
    };
    paths[e.path] = { get: operation, head: headOperation(operation) };
  }
  paths["/health"] = {
    get: {
      operationId: "health",
      summary: "Service and dataset status (no key needed).",
      security: [],
      responses: { "200": { description: "Always 200 while the process serves; content.state is ready or degraded, and content.datasets gives each dataset's status (ready, degraded, missing, invalid: degraded serves but a block read failed its check, see docs/deploy.md), format version, build time and counts." } },
    },
  };
  paths["/"] = {
    get: { operationId: "docsPage", summary: "Docs page and playground (HTML; no key needed). Its assets are under /docs/.", security: [], responses: { "200": { description: "The HTML page." }, "304": { description: "Not Modified (If-None-Match named the current ETag)." } } },
  };
  paths["/openapi.json"] = {
    get: { operationId: "openapi", summary: "This document (no key needed).", security: [], responses: { "200": { description: "OpenAPI 3.1 document." } } },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "Geodata API",
      version: "2",
      description: ["Self-hostable geodata API: forecasts, geocoding, elevation and station observations.", "", "## Decisions where the specification is silent", "", ...DECISIONS.map((d) => `- **${d.topic}**: ${d.decision}`)].join("\n"),
    },
    servers: [{ url: "/" }],
    security: [{ ApiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        ApiKey: { type: "apiKey", in: "header", name: "X-Api-Key", description: "Keys are configured with GEODATA_API_KEYS; compared in constant time; never logged." },
        ApiKeyQuery: { type: "apiKey", in: "query", name: "apikey", description: "Only for the other APIs' endpoints (docs/compatibility.md), whose clients send the key so: the same keys; the parameter's value never reaches a log line." },
      },
      schemas: SCHEMAS,
    },
  };
}
