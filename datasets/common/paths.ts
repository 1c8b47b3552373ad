import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

/**
 * The repository root: the nearest folder above this file that holds package.json. This file is
 * datasets/common/paths.ts, or dist/datasets/common/paths.js once compiled (`npm run build`),
 * and both must name the same root (where datasets/embedded, node_modules and data/ are).
 */
export const PROJECT_ROOT = ((): string => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "package.json"))) {
    const up = path.dirname(dir);
    if (up === dir) return path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
    dir = up;
  }
  return dir;
})();

/** Committed source data of the embedded default (see datasets/embedded/README.md). */
export const EMBEDDED_DIR = path.join(PROJECT_ROOT, "datasets", "embedded");

/**
 * The larger real corpora that exist only on our own machines, beside the project
 * (`../shared/data`). Benches and a few optional tests use them when present and skip otherwise.
 */
export const SHARED_DATA_DIR = path.resolve(PROJECT_ROOT, "..", "shared", "data");
