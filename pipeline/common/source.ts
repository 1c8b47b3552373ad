/**
 * Opens an upstream source given on the command line: a local path or an http(s) URL, plain,
 * gzip (`.gz`) or ZIP (`.zip`, one entry chosen by name or the only/first matching one), as a
 * stream of decompressed bytes. URLs are downloaded once into a cache directory (with retries)
 * and then read like local files, so a nightly job that is re-run does not download again.
 */
import { createReadStream, promises as fs } from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { createInterface } from "node:readline";
import { MissingInputError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { writeFileAtomic } from "../../datasets/artifact/atomic-write.ts";
import { fetchWithRetry } from "./http-fetch.ts";
import { listZipEntries, openZipEntry } from "./zip.ts";

export interface SourceOptions {
  /** For a ZIP: the entry to read (exact name or base name); default: the only entry, or the first `.txt`. */
  entry?: string;
  /** Where downloads are kept (default `<dataDir>/.cache/downloads`, set by the caller). */
  cacheDir?: string;
  logger?: Logger;
}

export interface OpenedSource {
  /** Decompressed bytes. */
  stream: Readable;
  /** The local file read (the cached download for a URL). */
  localPath: string;
  /** Name for messages: `file.zip!entry.txt`, or the file name. */
  displayName: string;
}

export function isUrl(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/** Downloads a URL into the cache (once) and returns the local path. */
export async function cachedDownload(url: string, cacheDir: string, logger?: Logger): Promise<string> {
  const base = path.basename(new URL(url).pathname) || "download";
  const key = createHash("sha256").update(url).digest("hex").slice(0, 16);
  const local = path.join(cacheDir, `${key}-${base}`);
  try {
    await fs.access(local);
    logger?.info("using cached download", { url, local: path.basename(local) });
    return local;
  } catch {
    logger?.info("downloading", { url });
    const body = await fetchWithRetry(url, { timeoutMs: 30 * 60_000, ...(logger ? { logger } : {}) });
    await writeFileAtomic(local, [body]);
    return local;
  }
}

/** Resolves a location to a local file (downloading URLs) and checks that it exists. */
export async function localFileOf(location: string, options: SourceOptions = {}): Promise<string> {
  if (isUrl(location)) {
    if (!options.cacheDir) throw new Error(`a cache directory is needed to download ${location}`);
    return cachedDownload(location, options.cacheDir, options.logger);
  }
  try {
    await fs.access(location);
  } catch {
    throw new MissingInputError(location, "source file");
  }
  return location;
}

export async function openSource(location: string, options: SourceOptions = {}): Promise<OpenedSource> {
  const localPath = await localFileOf(location, options);
  const lower = localPath.toLowerCase();
  if (lower.endsWith(".gz")) {
    return { stream: createReadStream(localPath, { highWaterMark: 1 << 20 }).pipe(createGunzip()), localPath, displayName: path.basename(location) };
  }
  if (lower.endsWith(".zip")) {
    const entries = (await listZipEntries(localPath)).filter((e) => !e.name.endsWith("/"));
    const wanted = options.entry;
    const entry = wanted
      ? entries.find((e) => e.name === wanted || path.posix.basename(e.name) === wanted)
      : entries.length === 1
        ? entries[0]
        : entries.find((e) => e.name.toLowerCase().endsWith(".txt")) ?? entries[0];
    if (!entry) throw new MissingInputError(`${location}!${wanted ?? "*"}`, "ZIP entry");
    return { stream: await openZipEntry(localPath, entry), localPath, displayName: `${path.basename(location)}!${entry.name}` };
  }
  return { stream: createReadStream(localPath, { highWaterMark: 1 << 20 }), localPath, displayName: path.basename(location) };
}

/** Reads a whole source into memory (for small files). */
export async function readSource(location: string, options: SourceOptions = {}): Promise<Buffer> {
  const { stream } = await openSource(location, options);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Lines of a decompressed stream with 1-based line numbers (CRLF or LF), UTF-8. */
export async function* readLines(stream: Readable): AsyncGenerator<{ line: string; lineNumber: number }> {
  const rl = createInterface({ input: stream, crlfDelay: Infinity });
  let lineNumber = 0;
  for await (const line of rl) {
    lineNumber++;
    yield { line, lineNumber };
  }
}
