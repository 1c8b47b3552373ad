/**
 * Fetches the sources of one dataset into the nightly cache (`<cache>/<host>/<path>`, the
 * validators and SHA-256 of each copy in `<file>.meta.json` beside it): a conditional request
 * for what we have, a resumed download for what was cut, size and checksum checks where the
 * configuration gives them (the upstream publishes them). `file://` sources are read in place.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sha256File } from "../../datasets/artifact/source-info.ts";
import { DataFormatError, MissingInputError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { downloadToFile } from "../common/http-download.ts";
import type { Validators } from "../common/http-fetch.ts";
import type { ReleaseSource } from "../../datasets/releases/manifest.ts";
import type { SourceSpec } from "./config.ts";
import { mirrorUrl } from "./mirror.ts";

/** One version of one source, as recorded in a release (release.json): its `url` is the configuration's upstream URL (before the mirror). */
export type SourceVersion = ReleaseSource;

export interface FetchedSource {
  spec: SourceSpec;
  localPath: string;
  version: SourceVersion;
  status: "fetched" | "not-modified" | "local";
  bytesFetched: number;
}

export type FetchSourceOptions = {
  cacheDir: string;
  mirror?: string | undefined;
  /** Ignore the validators of the cached copy: fetch again. */
  force?: boolean;
  logger: Logger;
  /** Retry tuning (tests shorten the backoff). */
  attempts?: number;
  backoffMs?: number;
};

/** Where a URL's copy lives in the cache: `<cache>/<host>/<path>` (query folded into the name). */
export function cachePathOf(cacheDir: string, url: string): string {
  const u = new URL(url);
  const name = `${u.pathname}${u.search ? "_" + u.search.slice(1).replace(/[^A-Za-z0-9._-]/g, "_") : ""}`;
  return path.join(cacheDir, u.host.replace(/[^A-Za-z0-9.-]/g, "_"), ...name.split("/").filter((p) => p !== "" && p !== ".."));
}

async function readMeta(file: string): Promise<SourceVersion | undefined> {
  try {
    return JSON.parse(await fs.readFile(`${file}.meta.json`, "utf8")) as SourceVersion;
  } catch {
    return undefined;
  }
}

function check(spec: SourceSpec, file: string, size: number, sha256: string): void {
  if (spec.size !== undefined && spec.size !== size) throw new DataFormatError({ file: spec.url }, `${spec.size} bytes (as published)`, `${size} bytes`);
  if (spec.sha256 !== undefined && spec.sha256 !== sha256) throw new DataFormatError({ file: spec.url }, `SHA-256 ${spec.sha256} (as published)`, `${sha256} (${path.basename(file)})`);
}

export async function fetchSource(spec: SourceSpec, options: FetchSourceOptions): Promise<FetchedSource> {
  const location = mirrorUrl(spec.url, options.mirror);
  if (location.startsWith("file:")) {
    const localPath = fileURLToPath(location);
    const stat = await fs.stat(localPath).catch(() => undefined);
    if (!stat?.isFile()) throw new MissingInputError(localPath, `source ${spec.url}`);
    const sha256 = await sha256File(localPath);
    check(spec, localPath, stat.size, sha256);
    options.logger.info("source read in place", { url: spec.url, file: path.basename(localPath), bytes: stat.size });
    return { spec, localPath, version: { url: spec.url, size: stat.size, sha256 }, status: "local", bytesFetched: 0 };
  }
  const localPath = cachePathOf(options.cacheDir, spec.url);
  const meta = options.force ? undefined : await readMeta(localPath);
  const have: Validators | undefined = meta && meta.url === spec.url ? { ...(meta.etag ? { etag: meta.etag } : {}), ...(meta.lastModified ? { lastModified: meta.lastModified } : {}) } : undefined;
  const result = await downloadToFile(location, localPath, {
    ...(have && (have.etag || have.lastModified) ? { have } : {}),
    logger: options.logger,
    ...(options.attempts !== undefined ? { attempts: options.attempts } : {}),
    ...(options.backoffMs !== undefined ? { backoffMs: options.backoffMs } : {}),
  });
  if (result.status === "not-modified" && meta) {
    options.logger.info("source not modified", { url: spec.url, etag: meta.etag, lastModified: meta.lastModified });
    return { spec, localPath, version: meta, status: "not-modified", bytesFetched: result.bytesFetched };
  }
  const size = (await fs.stat(localPath)).size;
  const sha256 = await sha256File(localPath);
  try {
    check(spec, localPath, size, sha256);
  } catch (err) {
    await fs.rm(localPath, { force: true });
    throw err;
  }
  const version: SourceVersion = { url: spec.url, size, sha256, ...result.validators };
  await fs.writeFile(`${localPath}.meta.json`, JSON.stringify(version, null, 2));
  return { spec, localPath, version, status: "fetched", bytesFetched: result.bytesFetched };
}
