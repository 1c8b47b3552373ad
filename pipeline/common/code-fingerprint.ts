/**
 * The code a pipeline step runs, as a hash: every project source file reachable from the step's
 * module through static and dynamic imports (relative specifiers), hashed by path and content, and
 * the installed version of every package those files import. `build-default` puts it in a step's
 * fingerprint, so that any change of the step's code (or of the datasets/ code it shares) rebuilds
 * the embedded default, with no hand-bumped version to forget.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../../datasets/common/paths.ts";

/** `from "x"`, `import("x")`, `import "x"` and `require("x")` (packages loaded through createRequire). */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["']([^"']+)["']/g;

/** Package name of a bare specifier (`@scope/name/sub` -> `@scope/name`), or undefined for node: builtins. */
function packageName(spec: string): string | undefined {
  if (spec.startsWith("node:")) return undefined;
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

function installedVersion(pkg: string): string {
  try {
    return (JSON.parse(readFileSync(path.join(PROJECT_ROOT, "node_modules", pkg, "package.json"), "utf8")) as { version?: string }).version ?? "?";
  } catch {
    return "not installed";
  }
}

/** The project files (absolute, sorted) and packages reachable from `entry` (an absolute .ts path). */
export function importClosure(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [path.resolve(entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(SPECIFIER)) {
      const spec = m[1]!;
      if (spec.startsWith(".")) {
        const target = path.resolve(path.dirname(file), spec);
        if (existsSync(target)) queue.push(target); // a specifier quoted in a comment may name nothing
      }
      else {
        const pkg = packageName(spec);
        if (pkg !== undefined) packages.add(pkg);
      }
    }
  }
  return { files: [...files].sort(), packages: [...packages].sort() };
}

/** sha256 over the closure's relative paths and contents and its packages' installed versions. */
export function codeFingerprint(entry: string): string {
  const { files, packages } = importClosure(entry);
  const hash = createHash("sha256");
  for (const f of files) {
    hash.update(`${path.relative(PROJECT_ROOT, f).split(path.sep).join("/")}\0`);
    hash.update(readFileSync(f));
    hash.update("\0");
  }
  for (const p of packages) hash.update(`${p}@${installedVersion(p)}\0`);
  return hash.digest("hex");
}
