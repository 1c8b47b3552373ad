/**
 * pipeline/ and server/ never import each other; what both need lives in datasets/.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
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

/** The folders of server/ that import one another in a circle (strongly connected components of more than one folder). */
function folderCycles(root: string): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const file of tsFiles(root)) {
    const from = path.relative(root, path.dirname(file)) || ".";
    for (const spec of importsOf(file)) {
      const to = path.relative(root, path.dirname(path.resolve(path.dirname(file), spec))) || ".";
      if (to === from || to.startsWith("..")) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
    }
  }
  // Tarjan's algorithm.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return components;
}

describe("server/ folders", () => {
  it("import one another without a cycle (a layering: api below the domains, endpoints above them, http above endpoints, the service on top)", () => {
    expect(folderCycles(path.join(PROJECT_ROOT, "server"))).toEqual([]);
  });

  it("the check finds a cycle through three folders, type imports included", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "geodata-layout-"));
    try {
      const write = (file: string, text: string): void => {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
      };
      write("a/x.ts", 'import { y } from "../b/y.ts";\nexport const x = y;\n');
      write("b/y.ts", 'import type { Z } from "../c/z.ts";\nexport const y: Z = 1;\n');
      write("c/z.ts", 'export type Z = number;\nexport { x } from "../a/x.ts";\n');
      write("d/w.ts", 'import { x } from "../a/x.ts";\nexport const w = x;\n');
      expect(folderCycles(dir)).toEqual([["a", "b", "c"]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
