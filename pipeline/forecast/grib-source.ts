/**
 * Where GRIB input comes from: a local directory or an HTTP base URL laid out like NOMADS.
 * Both give a file's `.idx` inventory when there is one, byte ranges, or the whole file. Over
 * HTTP, ranges and inventories are kept in a download cache (a re-run fetches nothing) and
 * fetched with retries and exponential backoff (pipeline/common/http-fetch.ts), which also
 * detects connections dropped mid-body.
 */
import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../../datasets/artifact/atomic-write.ts";
import { MissingInputError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { HttpFetchError, fetchWithValidators, type FetchOptions, type Fetched } from "../common/http-fetch.ts";
import { ecmwfIndexPath, parseEcmwfIndex } from "./ecmwf-index.ts";
import { parseInventory, type InventoryEntry } from "./inventory.ts";
import type { ByteRange } from "./ranges.ts";

export interface TransferStats {
  /** Requests answered with a body (inventories, ranges, whole files); retries not counted. */
  requests: number;
  /** Bytes received, those of failed attempts included (a local source: bytes read). */
  bytesFetched: number;
  /** Reads served by the download cache. */
  cacheHits: number;
  /** The newest Last-Modified of the responses (HTTP date), when the server sent one. */
  lastModified?: string;
}

/** Keeps the newer of two HTTP dates (undefined and unparsable dates lose). */
function newer(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined || !Number.isFinite(Date.parse(a))) return b;
  if (b === undefined || !Number.isFinite(Date.parse(b))) return a;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

export interface GribSource {
  /** True for an HTTP source (existence checks cost a request). */
  remote: boolean;
  /** The directories of a local source (searched for runs in an unknown layout). */
  roots: string[];
  /** Human-readable location of a file (URL or path), for metadata and errors. */
  locate(file: string): string;
  exists(file: string): Promise<boolean>;
  /** The file's inventory (`.idx` beside it, or ECMWF's `.index`), or undefined when it has none. */
  inventory(file: string, format?: InventoryFormat): Promise<InventoryEntry[] | undefined>;
  range(file: string, range: ByteRange): Promise<Uint8Array>;
  whole(file: string): Promise<Uint8Array>;
  /**
   * Where the octets of a range (or the whole file) read before lie on disk: the local file, or
   * the download cache's copy; undefined when they are only in memory.
   */
  location?(file: string, range: ByteRange | undefined): { path: string; offset: number } | undefined;
  stats: TransferStats;
}

/** wgrib2 `.idx` (NOAA) or ECMWF open data `.index` (JSON lines with `_offset`/`_length`). */
export type InventoryFormat = "wgrib2-idx" | "ecmwf-index";

function inventoryFile(file: string, format: InventoryFormat): string {
  return format === "ecmwf-index" ? ecmwfIndexPath(file) : `${file}.idx`;
}

function parseAny(text: string, where: string, format: InventoryFormat): InventoryEntry[] {
  return format === "ecmwf-index" ? parseEcmwfIndex(text, where) : parseInventory(text, where);
}

export interface HttpSourceOptions {
  cacheDir: string;
  logger: Logger;
  attempts?: number;
  backoffMs?: number;
  timeoutMs?: number;
}

export function isHttp(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/** Local directories, searched in order for each file. */
export function localSource(dirs: readonly string[]): GribSource {
  const stats: TransferStats = { requests: 0, bytesFetched: 0, cacheHits: 0 };
  const resolved = new Map<string, string>();
  const find = async (file: string): Promise<string | undefined> => {
    for (const dir of dirs) {
      const p = path.resolve(dir, file);
      try {
        await fs.access(p);
        resolved.set(file, p);
        return p;
      } catch {
        continue;
      }
    }
    return undefined;
  };
  const need = async (file: string): Promise<string> => {
    const p = await find(file);
    if (!p) throw new MissingInputError(dirs.map((d) => path.resolve(d, file)).join(" or "), "GRIB file");
    return p;
  };
  return {
    remote: false,
    roots: [...dirs],
    stats,
    locate: (file) => resolved.get(file) ?? path.resolve(dirs[0]!, file),
    exists: async (file) => (await find(file)) !== undefined,
    async inventory(file, format = "wgrib2-idx") {
      const p = inventoryFile(await need(file), format);
      try {
        return parseAny(await fs.readFile(p, "utf8"), p, format);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw err;
      }
    },
    async range(file, r) {
      const p = await need(file);
      const handle = await fs.open(p, "r");
      try {
        const size = (await handle.stat()).size;
        const last = r.last ?? size - 1;
        const buf = Buffer.alloc(last - r.first + 1);
        const { bytesRead } = await handle.read(buf, 0, buf.length, r.first);
        stats.requests++;
        stats.bytesFetched += bytesRead;
        return buf.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
    async whole(file) {
      const bytes = await fs.readFile(await need(file));
      stats.requests++;
      stats.bytesFetched += bytes.length;
      return bytes;
    },
    location(file, range) {
      const p = resolved.get(file);
      return p === undefined ? undefined : { path: p, offset: range?.first ?? 0 };
    },
  };
}

function cacheName(url: string, suffix: string): string {
  return `${createHash("sha256").update(url).digest("hex").slice(0, 20)}${suffix}`;
}

function rangeName(url: string, r: ByteRange): string {
  return cacheName(url, `-${r.first}-${r.last ?? "end"}.grib`);
}

/** A NOMADS-like HTTP tree under `base` (ending in '/'). */
export function httpSource(base: string, options: HttpSourceOptions): GribSource {
  const stats: TransferStats = { requests: 0, bytesFetched: 0, cacheHits: 0 };
  const root = base.endsWith("/") ? base : `${base}/`;
  const url = (file: string): string => new URL(file, root).toString();
  const timeoutMs = options.timeoutMs ?? 120_000;
  // Bytes are counted as they arrive, so a retried range counts what each attempt received.
  const fetchOptions: FetchOptions = { attempts: options.attempts ?? 5, backoffMs: options.backoffMs ?? 500, timeoutMs, logger: options.logger, onBytes: (n) => void (stats.bytesFetched += n) };
  const cached = async (name: string, get: () => Promise<Fetched>): Promise<Uint8Array> => {
    const local = path.join(options.cacheDir, name);
    try {
      const bytes = await fs.readFile(local);
      stats.cacheHits++;
      return bytes;
    } catch {
      const { body, validators } = await get();
      stats.requests++;
      const lastModified = newer(stats.lastModified, validators.lastModified);
      if (lastModified !== undefined) stats.lastModified = lastModified;
      await writeFileAtomic(local, [body]);
      return body;
    }
  };
  return {
    remote: true,
    roots: [],
    stats,
    locate: url,
    async exists(file) {
      try {
        const res = await fetch(url(file), { method: "HEAD", signal: AbortSignal.timeout(timeoutMs) });
        return res.ok;
      } catch {
        return false;
      }
    },
    async inventory(file, format = "wgrib2-idx") {
      const u = url(inventoryFile(file, format));
      try {
        const bytes = await cached(cacheName(u, ".idx"), () => fetchWithValidators(u, fetchOptions));
        return parseAny(Buffer.from(bytes).toString("utf8"), u, format);
      } catch (err) {
        if (err instanceof HttpFetchError && err.status === 404) return undefined;
        throw err;
      }
    },
    range(file, r) {
      const u = url(file);
      return cached(rangeName(u, r), () => fetchWithValidators(u, { ...fetchOptions, range: r.last === undefined ? { first: r.first } : { first: r.first, last: r.last } }));
    },
    // The cache keeps each range and whole file as it came (cached() writes it before returning).
    location: (file, r) => ({ path: path.join(options.cacheDir, r ? rangeName(url(file), r) : cacheName(url(file), ".grib")), offset: 0 }),
    whole(file) {
      const u = url(file);
      return cached(cacheName(u, ".grib"), async () => {
        try {
          return await fetchWithValidators(u, fetchOptions);
        } catch (err) {
          if (err instanceof HttpFetchError && err.status === 404) throw new MissingInputError(u, "GRIB file");
          throw err;
        }
      });
    },
  };
}
