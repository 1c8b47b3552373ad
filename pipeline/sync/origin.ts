/**
 * Where `sync` reads releases from: a builder's data directory served by any static HTTP server
 * (nginx, an object store's HTTP endpoint, a CDN), or mounted as a directory. Both answer the
 * same two questions, by path relative to that data directory: the text of a small file (the
 * pointer, a release.json), and the bytes of a file from an offset on. No directory listing is
 * ever needed: the pointer names the release and its release.json names every file.
 */
import { createReadStream, promises as fs } from "node:fs";
import path from "node:path";
import { HttpFetchError } from "../common/http-fetch.ts";

export type TextAnswer = { status: "ok"; text: string; etag?: string } | { status: "not-modified" } | { status: "absent" };

/** The bytes of a file from `start` on; `total` is the file's whole size when the origin says it. */
export interface ByteStream {
  start: number;
  total: number | undefined;
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

export interface Origin {
  /** The URL or directory, for messages. */
  readonly base: string;
  /** Where a path of the data directory is read from (a URL or an absolute path), for messages. */
  where(relPath: string): string;
  /** A small file; `etag` makes it conditional (HTTP). */
  readText(relPath: string, options?: { etag?: string; signal?: AbortSignal }): Promise<TextAnswer>;
  /** A file from byte `from` on; undefined when the file is not there. */
  openBytes(relPath: string, from: number, signal?: AbortSignal): Promise<ByteStream | undefined>;
}

/** Time limit of a whole small answer and of the wait for a large one's headers. */
const TIMEOUT_MS = 60_000;

function httpOrigin(base: string): Origin {
  const root = base.endsWith("/") ? base : `${base}/`;
  const where = (rel: string) => new URL(rel.split("/").map(encodeURIComponent).join("/"), root).href;
  return {
    base,
    where,
    async readText(rel, options = {}) {
      const url = where(rel);
      // no-cache: caches between (a CDN) revalidate the pointer instead of answering an old copy.
      const headers: Record<string, string> = { "User-Agent": "geodata-sync", "Cache-Control": "no-cache" };
      if (options.etag) headers["If-None-Match"] = options.etag;
      const signals = [AbortSignal.timeout(TIMEOUT_MS), ...(options.signal ? [options.signal] : [])];
      const response = await fetch(url, { headers, signal: AbortSignal.any(signals) });
      if (response.status === 304) return { status: "not-modified" };
      if (response.status === 404) {
        await response.body?.cancel();
        return { status: "absent" };
      }
      if (response.status !== 200) {
        await response.body?.cancel();
        throw new HttpFetchError(url, response.status, `HTTP ${response.status}`);
      }
      const etag = response.headers.get("etag");
      return { status: "ok", text: await response.text(), ...(etag ? { etag } : {}) };
    },
    async openBytes(rel, from, signal) {
      const url = where(rel);
      const headers: Record<string, string> = { "User-Agent": "geodata-sync" };
      if (from > 0) headers.Range = `bytes=${from}-`;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new Error(`no answer from ${url} within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
      const response = await fetch(url, { headers, signal: AbortSignal.any([controller.signal, ...(signal ? [signal] : [])]) }).finally(() => clearTimeout(timer));
      if (response.status === 404) {
        await response.body?.cancel();
        return undefined;
      }
      if (response.status === 416) {
        // Nothing from `from` on: the file is shorter than what we hold of it.
        await response.body?.cancel();
        const total = /\/(\d+)$/.exec(response.headers.get("content-range") ?? "");
        return { start: from, total: total ? Number(total[1]) : undefined, body: [] };
      }
      if (response.status !== 200 && response.status !== 206) {
        await response.body?.cancel();
        throw new HttpFetchError(url, response.status, `HTTP ${response.status}`);
      }
      const length = response.headers.get("content-length");
      if (response.status === 200) {
        // A server that ignores Range sends the whole file: the caller starts over.
        return { start: 0, total: length === null ? undefined : Number(length), body: (response.body ?? []) as AsyncIterable<Uint8Array> | Uint8Array[] };
      }
      const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.headers.get("content-range") ?? "");
      if (!range || Number(range[1]) !== from) {
        await response.body?.cancel();
        throw new HttpFetchError(url, undefined, `expected a range from byte ${from}, got Content-Range ${JSON.stringify(response.headers.get("content-range"))}`);
      }
      return { start: from, total: range[3] === "*" ? undefined : Number(range[3]), body: (response.body ?? []) as AsyncIterable<Uint8Array> | Uint8Array[] };
    },
  };
}

function dirOrigin(base: string): Origin {
  const where = (rel: string) => path.join(base, ...rel.split("/"));
  return {
    base,
    where,
    async readText(rel) {
      try {
        return { status: "ok", text: await fs.readFile(where(rel), "utf8") };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return { status: "absent" };
        throw err;
      }
    },
    async openBytes(rel, from, signal) {
      const file = where(rel);
      const stat = await fs.stat(file).catch(() => undefined);
      if (!stat?.isFile()) return undefined;
      const body = from >= stat.size ? [] : createReadStream(file, { start: from, highWaterMark: 1 << 20, ...(signal ? { signal } : {}) });
      return { start: from, total: stat.size, body };
    },
  };
}

/** An http(s) URL, or a directory (relative to the working directory). */
export function openOrigin(from: string): Origin {
  return /^https?:\/\//i.test(from) ? httpOrigin(from) : dirOrigin(path.resolve(from));
}
