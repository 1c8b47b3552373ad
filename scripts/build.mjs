// @ts-check
/**
 * `npm run build`: compiles server/, datasets/ and pipeline/ to JavaScript in dist/ with
 * `tsc -p tsconfig.build.json` (relative `.ts` imports rewritten to `.js`), so that production
 * runs plain node and no transpiler at startup. Plain JavaScript because it runs before anything
 * is compiled. `npm start` calls ensureBuilt(): it rebuilds only when the sources changed, told
 * by a sha256 over every compiled source file (path and content), the two tsconfig files and the
 * TypeScript version, kept in dist/.build-hash.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DIST = path.join(ROOT, "dist");
const SOURCE_DIRS = ["server", "datasets", "pipeline"];
const HASH_FILE = path.join(DIST, ".build-hash");

/** @param {string} dir @returns {string[]} the .ts files under dir (embedded data folders hold none) */
function tsFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
    .map((e) => path.join(e.parentPath, e.name));
}

/** The hash of everything the build output depends on. */
export function sourceHash() {
  const hash = createHash("sha256");
  const files = SOURCE_DIRS.flatMap((d) => tsFiles(path.join(ROOT, d))).sort();
  files.push(path.join(ROOT, "tsconfig.json"), path.join(ROOT, "tsconfig.build.json"), path.join(ROOT, "node_modules", "typescript", "package.json"));
  for (const f of files) {
    hash.update(path.relative(ROOT, f).split(path.sep).join("/") + "\0");
    hash.update(readFileSync(f));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/**
 * Compiles into a fresh dist/. Type errors are printed; the JavaScript is still emitted (tsc
 * emits despite them) and used, but the hash is not recorded, so the next start compiles again.
 * @returns {{ ok: boolean, ms: number }}
 */
export function build() {
  const t0 = performance.now();
  const hash = sourceHash();
  rmSync(DIST, { recursive: true, force: true });
  const tsc = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const result = spawnSync(process.execPath, [tsc, "-p", path.join(ROOT, "tsconfig.build.json")], { cwd: ROOT, stdio: "inherit" });
  const ok = result.status === 0;
  if (ok) writeFileSync(HASH_FILE, hash + "\n");
  return { ok, ms: performance.now() - t0 };
}

/** True when dist/ matches the sources. */
export function isFresh() {
  return existsSync(HASH_FILE) && readFileSync(HASH_FILE, "utf8").trim() === sourceHash();
}

/** Builds when stale; returns what happened, for the caller to log. */
export function ensureBuilt() {
  if (isFresh()) return { built: false, ok: true, ms: 0 };
  return { built: true, ...build() };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { ok, ms } = build();
  process.stdout.write(JSON.stringify({ level: ok ? "info" : "error", msg: ok ? "build done" : "build finished with type errors (JavaScript emitted)", outDir: "dist", ms: Math.round(ms) }) + "\n");
  process.exit(ok ? 0 : 1);
}
