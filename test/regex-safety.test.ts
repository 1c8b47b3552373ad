/**
 * Every regular expression of the code that runs in the server (server/ and datasets/) is checked
 * by recheck, a ReDoS checker: a new one that can backtrack super-linearly fails this test. The
 * literals are found with the TypeScript parser, so none is missed by a text search; a RegExp
 * built at run time cannot be checked and is refused outright.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { checkSync } from "recheck";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../datasets/common/paths.ts";

interface FoundRegex {
  where: string;
  source: string;
  flags: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|js|mjs)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

function regexesOf(file: string): { literals: FoundRegex[]; dynamic: string[] } {
  const text = readFileSync(file, "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const literals: FoundRegex[] = [];
  const dynamic: string[] = [];
  const where = (node: ts.Node): string => `${path.relative(PROJECT_ROOT, file)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText();
      const end = literal.lastIndexOf("/");
      literals.push({ where: where(node), source: literal.slice(1, end), flags: literal.slice(end + 1) });
    } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && node.expression.getText() === "RegExp") {
      dynamic.push(where(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { literals, dynamic };
}

const found = ["server", "datasets"].flatMap((dir) => sourceFiles(path.join(PROJECT_ROOT, dir)).map(regexesOf));
const literals = found.flatMap((f) => f.literals);

describe("regular expressions of the server's code", () => {
  it("are found (the scan itself works)", () => {
    // The request-target check must be among them, or the scan is looking in the wrong place.
    expect(literals.some((r) => r.where.startsWith(path.join("server", "http", "target.ts")))).toBe(true);
  });

  it("are all literals (a RegExp built at run time cannot be checked)", () => {
    expect(found.flatMap((f) => f.dynamic)).toEqual([]);
  });

  it.each(literals.map((r) => [`${r.where} /${r.source}/${r.flags}`, r] as const))("%s runs in linear time or better", (_, r) => {
    const result = checkSync(r.source, r.flags, { timeout: 10_000 });
    expect(result.status).toBe("safe");
    // "safe" (the automaton checker: no backtracking blow-up at all), or a constant or linear bound.
    expect(result.status === "safe" ? result.complexity.type : undefined).toMatch(/^(safe|constant|linear)$/);
  });

  it("the checker catches the shape of the old request-target check", () => {
    // The path check before the fix: the optional '/' let a run of letters split any number of ways.
    expect(checkSync("^\\/(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*\\/?)*$", "").status).toBe("vulnerable");
  });
});
