/**
 * The embedded default's code fingerprint: every declared step names the module that defines it,
 * the closure of a step reaches the code it runs (the SYNOP decoder for stations, the GRIB decoder
 * for forecast, shared datasets/ formats), and editing any file of the closure, even a comment,
 * changes the fingerprint while an unrelated file does not.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { codeFingerprint, importClosure } from "../../../pipeline/common/code-fingerprint.ts";
import { STEP_MODULES, STEPS } from "../../../pipeline/steps.ts";

const rel = (files: string[]): string[] => files.map((f) => path.relative(PROJECT_ROOT, f).split(path.sep).join("/"));

describe("step modules", () => {
  it("every step names the module that exports it", async () => {
    for (const step of STEPS) {
      const module = STEP_MODULES[step.name];
      expect(module, step.name).toBeDefined();
      const exports = (await import(path.join(PROJECT_ROOT, module!))) as Record<string, unknown>;
      expect(Object.values(exports), step.name).toContain(step);
    }
  });

  it("a step's closure reaches the code it runs", () => {
    const stations = importClosure(path.join(PROJECT_ROOT, STEP_MODULES.stations!));
    expect(rel(stations.files)).toEqual(expect.arrayContaining(["pipeline/stations/synop/decode.ts", "pipeline/stations/synop/section1.ts", "datasets/stations/record.ts", "pipeline/common/step.ts"]));
    expect(stations.packages).toContain("@duckdb/node-api");
    const forecast = importClosure(path.join(PROJECT_ROOT, STEP_MODULES.forecast!));
    expect(rel(forecast.files).some((f) => f.startsWith("pipeline/grib/"))).toBe(true);
    // Packages loaded with createRequire count too (the admin step reads geo-tz's geobuf data).
    expect(importClosure(path.join(PROJECT_ROOT, STEP_MODULES.admin!)).packages).toEqual(expect.arrayContaining(["geobuf", "pbf"]));
    expect(rel(forecast.files)).not.toContain("pipeline/stations/synop/decode.ts");
  });
});

describe("codeFingerprint", () => {
  let dir = "";
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("changes when an imported file changes, even a comment, and not for an unrelated file", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "code-fp-"));
    const write = (name: string, text: string): Promise<void> => writeFile(path.join(dir, name), text);
    await write("step.ts", 'import { a } from "./a.ts";\nexport const run = (): number => a();\n');
    await write("a.ts", 'export { b } from "./b.ts";\nexport const a = (): number => 1;\n');
    await write("b.ts", "export const b = 2;\n");
    await write("unrelated.ts", "export const c = 3;\n");
    const entry = path.join(dir, "step.ts");
    expect(importClosure(entry).files.map((f) => path.basename(f))).toEqual(["a.ts", "b.ts", "step.ts"]);
    const first = codeFingerprint(entry);
    expect(codeFingerprint(entry)).toBe(first);
    await write("unrelated.ts", "export const c = 4;\n");
    expect(codeFingerprint(entry)).toBe(first);
    await write("b.ts", "// a comment\nexport const b = 2;\n");
    const second = codeFingerprint(entry);
    expect(second).not.toBe(first);
    await write("a.ts", 'export { b } from "./b.ts";\nexport const a = (): number => 5;\n');
    expect(codeFingerprint(entry)).not.toBe(second);
  });
});
