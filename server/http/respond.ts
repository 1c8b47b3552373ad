/**
 * Serialisation of the envelope and the error body, and content-encoding negotiation.
 */
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";
import { Fragment } from "../api/body-parts.ts";
import type { TemplatePart } from "../api/instant-part.ts";

/**
 * Bodies at most this long are sent uncompressed: with the headers they fit in about one TCP
 * segment either way, and compressing them costs 10-20 µs each, a sixth of a request's whole CPU
 * time (bench/compression.bench.ts, docs/http.md).
 */
export const COMPRESSION_THRESHOLD_BYTES = 1400;

/**
 * Per-response levels, chosen by bench/compression.bench.ts on real answers: brotli quality 1
 * comes within 5-15 % of quality 5's size at a third to a tenth of its time (quality 2 and up
 * switch to slower match finders); gzip level 1 is within a few percent of level 6's size.
 */
export const BROTLI_QUALITY = 1;
export const GZIP_LEVEL = 1;

/**
 * Levels for answers that are compressed once and sent many times: those of a bounded set of
 * keys, kept by the response cache (station observations: one answer per station). On 64 real
 * SYNOP answers (mean 19.2 KB, `npm run bench -- compression`) brotli 5 gives 8.5 % of the body
 * against quality 1's 12.3 % (-31 %) for 149 µs once instead of 35 µs; gzip 6 9.5 % against
 * level 1's 12.2 % for 133 µs instead of 51 (docs/http.md "Compression").
 */
export const KEPT_BROTLI_QUALITY = 5;
export const KEPT_GZIP_LEVEL = 6;

/** How hard to compress: `per-request` (the default) or `kept` (see KEPT_BROTLI_QUALITY). */
export type CompressionEffort = "per-request" | "kept";

export type Encoding = "br" | "gzip" | "identity";

/**
 * Picks br, then gzip, from an Accept-Encoding header (RFC 9110 §12.5.3): q=0 refuses a coding,
 * `*` stands for any coding not listed; equal q-values prefer br.
 */
export function negotiateEncoding(header: string | undefined): Encoding {
  return header ? choicesOf(header).best : "identity";
}

/**
 * The coding for a body spliced from precompressed parts (body-parts.ts): gzip whenever the client
 * takes it at least as willingly as br, since a spliced gzip costs a copy and a CRC where brotli
 * would compress the whole body again; else as negotiateEncoding.
 */
export function negotiateSplicedEncoding(header: string | undefined): Encoding {
  return header ? choicesOf(header).spliced : "identity";
}

interface Choices {
  best: Encoding;
  spliced: Encoding;
}

function choicesOf(header: string): Choices {
  const known = negotiated.get(header);
  if (known !== undefined) return known;
  const choices = parseAcceptEncoding(header);
  // Clients send a handful of distinct headers; the cache is bounded against one that varies.
  if (negotiated.size >= 256) negotiated.clear();
  negotiated.set(header, choices);
  return choices;
}

const negotiated = new Map<string, Choices>();

function parseAcceptEncoding(header: string): Choices {
  const q = new Map<string, number>();
  for (const part of header.split(",")) {
    const [nameRaw, ...paramsRaw] = part.trim().split(";");
    const name = (nameRaw ?? "").trim().toLowerCase();
    if (!name) continue;
    let weight = 1;
    for (const p of paramsRaw) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) weight = Math.min(1, Math.max(0, Number(m[1]) || 0));
    }
    q.set(name, weight);
  }
  const weightOf = (coding: string): number => q.get(coding) ?? q.get("*") ?? 0;
  const br = weightOf("br");
  const gzip = Math.max(weightOf("gzip"), q.get("x-gzip") ?? 0);
  const best: Encoding = br > 0 && br >= gzip ? "br" : gzip > 0 ? "gzip" : "identity";
  return { best, spliced: gzip > 0 && gzip >= br ? "gzip" : best };
}

/** The body in `encoding`, at the levels of `effort` (the ETag names a `kept` level: cache.ts encodedTag). */
export function compress(body: Buffer, encoding: Encoding, effort: CompressionEffort = "per-request"): Buffer {
  if (encoding === "identity") return body;
  const pre = precompressed.get(body);
  if (pre) return pre[encoding];
  const kept = effort === "kept";
  if (encoding === "br") {
    return brotliCompressSync(body, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: kept ? KEPT_BROTLI_QUALITY : BROTLI_QUALITY, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.byteLength },
    });
  }
  return gzipSync(body, { level: kept ? KEPT_GZIP_LEVEL : GZIP_LEVEL });
}

/** Bodies that never change (/openapi.json), compressed once at the best levels. */
const precompressed = new WeakMap<Buffer, { br: Buffer; gzip: Buffer }>();

/**
 * Marks a body as static: compresses it once (brotli quality 11, gzip level 9), and compress()
 * returns those copies for it from then on. The same Buffer must be passed each time.
 */
export function staticBody(body: Buffer): Buffer {
  if (!precompressed.has(body)) {
    precompressed.set(body, {
      br: brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.byteLength } }),
      gzip: gzipSync(body, { level: 9 }),
    });
  }
  return body;
}

export function successBody(status: number, content: unknown): Buffer {
  return Buffer.from(JSON.stringify({ status: "OK", code: status, content }), "utf8");
}

/**
 * The same envelope around content already serialized as JSON text, UTF-8 bytes, or UTF-8 pieces
 * that together are the content (large answers written directly, or read where they lie), joined
 * into the body in one copy.
 */
export function successBodyFromJson(status: number, contentJson: string | Uint8Array | readonly Uint8Array[]): Buffer {
  if (typeof contentJson === "string") return Buffer.from(`{"status":"OK","code":${status},"content":${contentJson}}`, "utf8");
  const pieces = contentJson instanceof Uint8Array ? [contentJson] : contentJson;
  return Buffer.concat([Buffer.from(`{"status":"OK","code":${status},"content":`, "latin1"), ...pieces, CLOSE_BRACE]);
}

const CLOSE_BRACE = Buffer.from("}", "latin1");

const ENVELOPE_OPEN_200 = Fragment.of(`{"status":"OK","code":200,"content":`);
const ENVELOPE_CLOSE = Fragment.of("}");

/** The 200 envelope around content given as parts (body-parts.ts), some maybe written at the instant. */
export function successParts<P extends TemplatePart>(contentParts: readonly P[]): (P | Fragment)[] {
  return [ENVELOPE_OPEN_200, ...contentParts, ENVELOPE_CLOSE];
}

export function errorBody(status: number, message: string): Buffer {
  return Buffer.from(JSON.stringify({ status: "error", code: status, message }), "utf8");
}
