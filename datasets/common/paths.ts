import { fileURLToPath } from "node:url";
import path from "node:path";

/** The repository root (this file is datasets/common/paths.ts). */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Committed source data of the embedded default (see datasets/embedded/README.md). */
export const EMBEDDED_DIR = path.join(PROJECT_ROOT, "datasets", "embedded");

/**
 * The larger real corpora that exist only on our own machines, beside the project
 * (`../shared/data`). Benches and a few optional tests use them when present and skip otherwise.
 */
export const SHARED_DATA_DIR = path.resolve(PROJECT_ROOT, "..", "shared", "data");
