/**
 * The OpenAPI document: valid OpenAPI 3.1 (checked by an independent validator), the eight paths
 * with GET and HEAD, and every decision of server/openapi/decisions.ts also written in README.md.
 */
import { SLOT_MEMBERS } from "../../server/weather/members.ts";
import { WEATHER_COLOR_SCALE_DOC } from "../../server/weather/derived/temperature-colors.ts";
import { GENERATED_PAGES } from "../../server/openapi/generated-pages.ts";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../datasets/common/paths.ts";
import { ENDPOINTS } from "../../server/endpoints/routes.ts";
import { DECISIONS, DECISIONS_FILE, decisionsMarkdown } from "../../server/openapi/decisions.ts";
import { buildOpenApi } from "../../server/openapi/document.ts";

const doc = buildOpenApi(ENDPOINTS) as { openapi: string; info: { description: string }; paths: Record<string, Record<string, { parameters: Array<{ name: string }>; responses: Record<string, unknown> }>> };

describe("OpenAPI document", () => {
  it("is valid OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("has the spec's eight paths, each with GET and HEAD, its parameters and the error statuses", () => {
    const specPaths = ["/weather/point/2/json", "/geocode/reverse/2/json", "/weather/METAR/2/json", "/weather/SYNOP/2/json", "/geocode/search/2/json", "/elevation/point/2/json", "/geocode/id/2/json", "/weather/id/2/json"];
    for (const p of specPaths) {
      const item = doc.paths[p]!;
      expect(item.get).toBeDefined();
      expect(item.head).toBeDefined();
      for (const status of ["200", "400", "401", "503"]) expect(item.get!.responses[status]).toBeDefined();
    }
    expect(doc.paths["/geocode/search/2/json"]!.get!.parameters.map((p) => p.name)).toEqual(["q", "limit", "offset"]);
  });

  it("documents HEAD as GET without a body: the same parameters, statuses and headers, no content", () => {
    type Response = { headers?: Record<string, unknown>; content?: unknown };
    for (const e of ENDPOINTS) {
      const { get, head } = doc.paths[e.path]! as Record<string, { parameters: unknown[]; responses: Record<string, Response> }>;
      expect(head!.parameters).toEqual(get!.parameters);
      expect(Object.keys(head!.responses)).toEqual(Object.keys(get!.responses));
      for (const [status, response] of Object.entries(head!.responses)) {
        expect(response.content, `${e.path} HEAD ${status}`).toBeUndefined();
        expect(Object.keys(response.headers ?? {})).toEqual(Object.keys(get!.responses[status]!.headers ?? {}));
      }
      expect(get!.responses["200"]!.content).toBeDefined();
    }
  });

  it("lists every decision of the data file", () => {
    expect(DECISIONS.length).toBeGreaterThan(40);
    for (const d of DECISIONS) expect(doc.info.description).toContain(`**${d.topic}**: ${d.decision}`);
  });

  it("describes every weather slot member", () => {
    for (const m of SLOT_MEMBERS) expect((doc.paths["/weather/point/2/json"]!.get! as { description?: string }).description).toContain(`| \`${m.member}\` | ${m.unit} |`);
  });

  it.each(GENERATED_PAGES.map((p) => [p.file, p] as const))("%s is current (npm run docs)", (file, page) => {
    const text = readFileSync(path.join(PROJECT_ROOT, file), "utf8");
    expect(page.render(text) === text, `${file} differs from its sources: run npm run docs`).toBe(true);
  });

  it("writes every decision on exactly one documentation page", () => {
    const pages = GENERATED_PAGES.filter((p) => p.file.startsWith("docs/decisions")).map((p) => readFileSync(path.join(PROJECT_ROOT, p.file), "utf8"));
    // Written as the pages write it: one list item, wrapped to readable lines.
    for (const d of DECISIONS) expect(pages.filter((text) => text.includes(decisionsMarkdown([d]))).length, d.topic).toBe(1);
  });

  it("keeps the decisions data file readable: no line over 120 characters", () => {
    const long = readFileSync(DECISIONS_FILE, "utf8").split("\n").map((l, i) => [i + 1, l.length] as const).filter(([, n]) => n > 120);
    expect(long).toEqual([]);
  });

  it("states the temperature colour scale as the code defines it", () => {
    expect(DECISIONS.find((d) => d.topic === "Weather: temperature colours")?.decision).toBe(WEATHER_COLOR_SCALE_DOC);
  });
});
