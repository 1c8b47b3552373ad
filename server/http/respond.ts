/**
 * Serialisation of the envelope and the error body, and content-encoding negotiation.
 */
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";

/** Bodies at most this long are sent uncompressed: the framing would cost more than it saves. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

export type Encoding = "br" | "gzip" | "identity";

/**
 * Picks br, then gzip, from an Accept-Encoding header (RFC 9110 §12.5.3): q=0 refuses a coding,
 * `*` stands for any coding not listed; equal q-values prefer br.
 */
export function negotiateEncoding(header: string | undefined): Encoding {
  if (!header) return "identity";
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
  if (br > 0 && br >= gzip) return "br";
  if (gzip > 0) return "gzip";
  return "identity";
}

export function compress(body: Buffer, encoding: Encoding): Buffer {
  switch (encoding) {
    case "br":
      // Quality 5: most of brotli's gain at a fraction of the default (11) cost per response.
      return brotliCompressSync(body, {
        params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.byteLength },
      });
    case "gzip":
      return gzipSync(body, { level: 6 });
    case "identity":
      return body;
  }
}

export function successBody(status: number, content: unknown): Buffer {
  return Buffer.from(JSON.stringify({ status: "OK", code: status, content }), "utf8");
}

export function errorBody(status: number, message: string): Buffer {
  return Buffer.from(JSON.stringify({ status: "error", code: status, message }), "utf8");
}
