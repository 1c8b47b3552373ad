/**
 * GET / and /docs/*: the docs page and playground (no key: it is public documentation; the page
 * asks for a key and sends it in X-Api-Key itself). Every asset is served by us from this folder
 * or from installed npm packages (swagger-ui-dist, uplot): no CDN, works offline. The world map is
 * read from the loaded admin dataset (built with it: pipeline/admin/world-map.ts).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { AdminIndex } from "../../datasets/admin/admin-index.ts";
import { PROJECT_ROOT } from "../../datasets/common/paths.ts";

export interface DocsAsset {
  body: Buffer;
  contentType: string;
  /** Strong validator: a digest of the bytes. */
  etag: string;
  cacheControl: string;
}

/** The static files stay in the source tree: the compiled server (dist/, npm run build) reads them there too. */
const HERE = path.join(PROJECT_ROOT, "server", "docs-page");
const require = createRequire(import.meta.url);
const packageDir = (name: string): string => path.dirname(require.resolve(`${name}/package.json`));

/** Path → file, content type. Read on first request, then kept. */
const FILES: Record<string, { file: () => string; type: string }> = {
  "/": { file: () => path.join(HERE, "index.html"), type: "text/html; charset=utf-8" },
  "/docs/app.js": { file: () => path.join(HERE, "app.js"), type: "text/javascript; charset=utf-8" },
  "/docs/style.css": { file: () => path.join(HERE, "style.css"), type: "text/css; charset=utf-8" },
  "/docs/vendor/swagger-ui-bundle.js": { file: () => path.join(packageDir("swagger-ui-dist"), "swagger-ui-bundle.js"), type: "text/javascript; charset=utf-8" },
  "/docs/vendor/swagger-ui.css": { file: () => path.join(packageDir("swagger-ui-dist"), "swagger-ui.css"), type: "text/css; charset=utf-8" },
  "/docs/vendor/uPlot.iife.min.js": { file: () => path.join(packageDir("uplot"), "dist", "uPlot.iife.min.js"), type: "text/javascript; charset=utf-8" },
  "/docs/vendor/uPlot.min.css": { file: () => path.join(packageDir("uplot"), "dist", "uPlot.min.css"), type: "text/css; charset=utf-8" },
};

export const WORLD_MAP_PATH = "/docs/countries.geojson";

function asset(body: Buffer, contentType: string, cacheControl: string): DocsAsset {
  return { body, contentType, cacheControl, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
}

const cache = new Map<string, DocsAsset>();
const maps = new WeakMap<AdminIndex, DocsAsset>();

/**
 * The asset at `urlPath`, or undefined when it is not one of ours (the router goes on). `admin`
 * is the loaded admin dataset, for the map; without it the map path is undefined too.
 */
export function docsAsset(urlPath: string, admin: AdminIndex | undefined): DocsAsset | undefined {
  if (urlPath === WORLD_MAP_PATH) {
    if (!admin) return undefined;
    let map = maps.get(admin);
    if (!map) {
      map = asset(Buffer.from(admin.worldMapJson()), "application/geo+json; charset=utf-8", "public, max-age=86400");
      maps.set(admin, map);
    }
    return map;
  }
  const entry = FILES[urlPath];
  if (!entry) return undefined;
  let found = cache.get(urlPath);
  if (!found) {
    // Our own files may change with a deploy: revalidate; vendor files change with their version only.
    found = asset(readFileSync(entry.file()), entry.type, urlPath.startsWith("/docs/vendor/") ? "public, max-age=86400" : "no-cache");
    cache.set(urlPath, found);
  }
  return found;
}
