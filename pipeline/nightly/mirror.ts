/**
 * `--mirror BASE` (or GEODATA_MIRROR): every upstream URL `https://host/path?query` is read from
 * `BASE/host/path?query` instead, for tests and for air-gapped sites. BASE is an http(s) URL or a
 * local directory laid out the same way.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";

export function mirrorUrl(url: string, base: string | undefined): string {
  if (!base || url.startsWith("file:")) return url;
  const u = new URL(url);
  const rest = `${u.host}${u.pathname}${u.search}`;
  if (/^https?:\/\//i.test(base)) return `${base.replace(/\/+$/, "")}/${rest}`;
  return pathToFileURL(path.join(path.resolve(base), decodeURIComponent(`${u.host}${u.pathname}`))).href;
}
