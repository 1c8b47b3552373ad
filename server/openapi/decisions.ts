/**
 * The decisions taken where the spec says "not shown". The same list is in README.md
 * ("Decisions where the spec is silent").
 * Each domain appends its own entries.
 */
export interface Decision {
  topic: string;
  decision: string;
}

export const DECISIONS: readonly Decision[] = [
  { topic: "Error statuses beyond 400/401/503", decision: "404 for an unknown path (with a valid key) and for an id that matches nothing; 405 (with Allow: GET, HEAD) for any other method; 413 for a request with a body; 414 for a URL over 8192 bytes; 431 for headers over 16 KiB; 500 only for a bug, with a generic message. Every error uses the spec's error body." },
  { topic: "Order of checks", decision: "URL length (414), body (413), method (405), then /health and /openapi.json without a key, then the key (401), the path (404), the parameters (400), the datasets (503)." },
  { topic: "Unknown and repeated parameters", decision: "A query parameter the endpoint does not define, or any parameter given more than once, is a 400 naming it." },
  { topic: "Number syntax", decision: "lat and lon are plain decimal numbers (optional sign, digits, optional fraction, at most 32 characters); exponents, hex, NaN, Infinity, blanks and trailing characters are a 400. Range limits are inclusive." },
  { topic: "limit and offset", decision: "limit: integer 0 to 100, default 10 (0 returns only total). offset: integer 0 to 1,000,000, default 0. Out of range is a 400, not silently clamped." },
  { topic: "Texts", decision: "q: 1 to 200 characters after trimming; id: 1 to 64 characters after trimming; control characters are a 400." },
  { topic: "Authentication", decision: "Keys come from GEODATA_API_KEYS (comma-separated, 16 to 256 printable characters each); with none configured, npm start generates a random key per run. No fixed default key, no key in the query string, keys never logged. Rate limits: none in the service (put a proxy in front)." },
  { topic: "Compression", decision: "Bodies over 1024 bytes are sent with br or gzip when Accept-Encoding allows (br preferred at equal weight); Vary: Accept-Encoding always." },
  { topic: "HEAD", decision: "Every GET path answers HEAD with the same status and headers (Content-Length of the GET body) and no body." },
  { topic: "Health", decision: "GET /health needs no key and answers 200 while the process serves, with state ready or degraded and each dataset's status, version, build time and counts." },
];
