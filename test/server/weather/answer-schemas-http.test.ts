/**
 * The JSON Schemas made from the weather answers' descriptions (answer-shape.ts) against the
 * answers themselves: /weather/id and /weather/point answers from the embedded default, served
 * over HTTP, validated against the schema /openapi.json gives for their 200 content. The checker
 * here reads the keywords those schemas use (type, required, properties, patternProperties,
 * min/maxProperties, items, const, enum, pattern, $ref to components) and fails on a member the
 * schema does not allow, so a writer and its schema that drift apart fail here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { weatherDataDir, type WeatherDataDir } from "../../helpers/weather-data.ts";

type Schema = Record<string, unknown>;

let dir: WeatherDataDir;
let server: TestServer;
let components: Record<string, Schema>;
let contentOf: (path: string) => Schema;
beforeAll(async () => {
  dir = await weatherDataDir({ datasets: ["places", "admin", "elevation", "stations", "forecast"] });
  server = await startTestServer({ dataDir: dir.dir });
  const doc = (await (await server.get("/openapi.json")).json()) as { paths: Record<string, any>; components: { schemas: Record<string, Schema> } };
  components = doc.components.schemas;
  contentOf = (path) => doc.paths[path].get.responses["200"].content["application/json"].schema.properties.content as Schema;
}, 600_000);
afterAll(async () => {
  await server?.close();
  await dir?.remove();
});

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/** The errors of `value` against `schema`, with where they are. */
function check(schema: Schema, value: unknown, where: string, errors: string[]): void {
  if (typeof schema.$ref === "string") return check(components[schema.$ref.split("/").pop()!]!, value, where, errors);
  const t = typeOf(value);
  if (schema.type !== undefined) {
    const types = ([] as string[]).concat(schema.type as string | string[]);
    if (!types.includes(t) && !(t === "integer" && types.includes("number"))) errors.push(`${where}: expected ${types.join("|")}, got ${t}`);
  }
  if ("const" in schema && value !== schema.const) errors.push(`${where}: expected ${JSON.stringify(schema.const)}, got ${JSON.stringify(value)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) errors.push(`${where}: expected one of ${JSON.stringify(schema.enum)}, got ${JSON.stringify(value)}`);
  if (typeof schema.pattern === "string" && typeof value === "string" && !new RegExp(schema.pattern).test(value)) errors.push(`${where}: ${value} does not match ${schema.pattern}`);
  if (t === "array" && schema.items) (value as unknown[]).forEach((v, k) => check(schema.items as Schema, v, `${where}[${k}]`, errors));
  if (t !== "object") return;
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o);
  for (const k of (schema.required as string[] | undefined) ?? []) if (!(k in o)) errors.push(`${where}: ${k} required`);
  if (typeof schema.minProperties === "number" && keys.length < schema.minProperties) errors.push(`${where}: fewer than ${schema.minProperties} members`);
  if (typeof schema.maxProperties === "number" && keys.length > schema.maxProperties) errors.push(`${where}: more than ${schema.maxProperties} members`);
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const patterns = Object.entries((schema.patternProperties ?? {}) as Record<string, Schema>);
  for (const k of keys) {
    const byPattern = patterns.find(([p]) => new RegExp(p).test(k));
    const sub = properties[k] ?? byPattern?.[1] ?? (schema.additionalProperties as Schema | undefined);
    if (sub === undefined) {
      if (schema.properties !== undefined || patterns.length > 0) errors.push(`${where}: member ${k} not allowed`);
      continue;
    }
    check(sub, o[k], `${where}.${k}`, errors);
  }
}

async function content(path: string): Promise<unknown> {
  const r = await server.get(path);
  expect(r.status, path).toBe(200);
  return ((await r.json()) as { content: unknown }).content;
}

describe("the weather answers against their schemas", () => {
  it("/weather/id: places inside and outside the forecast runs, with and without local data", async () => {
    const schema = contentOf("/weather/id/2/json");
    // Berlin, Lisbon, Madrid (the Iberian run), Troianul (a 1° node), Honolulu.
    for (const id of ["gn:2950159", "gn:2267057", "gn:3117735", "gn:664591", "gn:5856195"]) {
      const errors: string[] = [];
      const c = await content(`/weather/id/2/json?id=${id}`);
      check(schema, c, id, errors);
      expect(errors, id).toEqual([]);
      expect((c as { weather: { daily: unknown[] } }).weather.daily.length, id).toBeGreaterThan(0);
    }
  });

  it("/weather/point at seeded points over land and sea", async () => {
    const schema = contentOf("/weather/point/2/json");
    for (const [lat, lon] of [[52.52, 13.4], [40.4, -3.7], [-33.9, 151.2], [0, -140], [64.8, -147.7]]) {
      const errors: string[] = [];
      check(schema, await content(`/weather/point/2/json?lat=${lat}&lon=${lon}`), `${lat},${lon}`, errors);
      expect(errors, `${lat},${lon}`).toEqual([]);
    }
  });

  it("the checker fails on a member the schema does not allow and on a wrong unit", () => {
    const schema = contentOf("/weather/point/2/json");
    const errors: string[] = [];
    check(schema, { weather: [{ "2026-11-23": [{ "00:00": { clouds: {}, extra: 1 } }] }] }, "made-up", errors);
    expect(errors.some((e) => e.includes("member extra not allowed"))).toBe(true);
    expect(errors.some((e) => e.includes("reltiveHumidity required"))).toBe(true);
  });
});
