/**
 * pipeline/ and server/ never import each other; what both need lives in datasets/.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../datasets/common/paths.ts";

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => path.join(e.parentPath, e.name));
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^"']*?from\s*["']([^"']+)["']/g), ...text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)];
  return specs.map((m) => m[1]!).filter((s) => s.startsWith("."));
}

describe.each([
  ["server", "pipeline"],
  ["pipeline", "server"],
  ["datasets", "server"],
  ["datasets", "pipeline"],
])("%s/", (from, forbidden) => {
  it(`imports nothing from ${forbidden}/`, () => {
    const offenders: string[] = [];
    for (const file of tsFiles(path.join(PROJECT_ROOT, from))) {
      for (const spec of importsOf(file)) {
        const target = path.relative(PROJECT_ROOT, path.resolve(path.dirname(file), spec));
        if (target.split(path.sep)[0] === forbidden) offenders.push(`${path.relative(PROJECT_ROOT, file)} → ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
