/**
 * `--mirror BASE` (or GEODATA_MIRROR): every upstream URL `https://host/path?query` is read from
 * `BASE/host/path?query` instead, for tests and for air-gapped sites. BASE is an http(s) URL or a
 * local directory laid out the same way.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";

/** Where a source's upstream URL is read from: `location` is mirrorUrl's answer (a file: URL as a path). */
export interface MirroredLocation {
  location: string;
  url: string;
}

/**
 * The upstream URL of a location a step reports (under one of `mapped`'s locations), so that a
 * summary names the upstream, not the mirror, as it does for the sources the nightly downloads.
 * A location under none of them is returned as is.
 */
export function upstreamOf(reported: string, mapped: readonly MirroredLocation[]): string {
  // The longest location first: one may lie under another (a model's server below the base's host).
  for (const { location, url } of [...mapped].sort((x, y) => y.location.length - x.location.length)) {
    const base = location.replace(/\/+$/, "");
    if (reported !== base && !reported.startsWith(`${base}/`)) continue;
    const rest = reported.slice(base.length + 1);
    return rest === "" && !url.endsWith("/") ? url : `${url.replace(/\/+$/, "")}/${rest}`;
  }
  return reported;
}

export function mirrorUrl(url: string, base: string | undefined): string {
  if (!base || url.startsWith("file:")) return url;
  const u = new URL(url);
  const rest = `${u.host}${u.pathname}${u.search}`;
  if (/^https?:\/\//i.test(base)) return `${base.replace(/\/+$/, "")}/${rest}`;
  return pathToFileURL(path.join(path.resolve(base), decodeURIComponent(`${u.host}${u.pathname}`))).href;
}
