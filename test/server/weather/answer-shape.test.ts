/**
 * The list node of the answer-shape language (server/weather/answer-shape.ts), on a small table
 * built here: its writer gives the text of JSON.stringify of the same list built as objects
 * (keyed and unkeyed, nested, empty), its schema says an array of one-member objects whose key
 * matches the pattern, and the docs rows of its items are the list's.
 */
import { describe, expect, it } from "vitest";
import { compileWriter, docRows, schemaOf, type Node } from "../../../server/weather/answer-shape.ts";
import { JsonText } from "../../../server/weather/json-text.ts";

interface Table {
  groups: { name: string; from: number; to: number }[];
  times: string[];
  values: number[];
}

const ROW: Node<Table> = { kind: "measure", unit: "°C", value: (t, i) => t.values[i]!, doc: { source: "s", window: "w", formula: "f" } };
const GROUPED: Node<Table> = {
  kind: "list",
  description: "groups",
  rows: (t) => ({ from: 0, to: t.groups.length }),
  key: { pattern: "^[a-z]+$", of: (t, g) => t.groups[g]!.name },
  item: { kind: "list", rows: (t, g) => t.groups[g]!, key: { pattern: "^\\d{2}:\\d{2}$", of: (t, i) => t.times[i]! }, item: ROW },
};
const PLAIN: Node<Table> = { kind: "list", rows: (t) => ({ from: 0, to: t.values.length }), item: ROW };

const written = (node: Node<Table>, t: Table): string => {
  const w = new JsonText();
  compileWriter(node)(w, t, 0);
  return w.json();
};

const table: Table = {
  groups: [
    { name: "a", from: 0, to: 2 },
    { name: "b", from: 2, to: 3 },
  ],
  times: ["00:00", "01:00", "02:00"],
  values: [1.5, -0.25, NaN],
};

describe("the list node", () => {
  it("writes keyed, nested and plain lists as JSON.stringify does", () => {
    const m = (v: number): unknown => ({ value: Number.isNaN(v) ? null : v, unit: "°C" });
    expect(written(GROUPED, table)).toBe(JSON.stringify([{ a: [{ "00:00": m(1.5) }, { "01:00": m(-0.25) }] }, { b: [{ "02:00": m(NaN) }] }]));
    expect(written(PLAIN, table)).toBe(JSON.stringify([m(1.5), m(-0.25), m(NaN)]));
    expect(written(GROUPED, { groups: [], times: [], values: [] })).toBe("[]");
    expect(written(GROUPED, { ...table, groups: [{ name: "c", from: 1, to: 1 }] })).toBe('[{"c":[]}]');
  });

  it("has the schema of an array of one-member objects keyed by the pattern, and its items' docs rows", () => {
    const schema = schemaOf(GROUPED);
    expect(schema).toMatchObject({ type: "array", description: "groups", items: { type: "object", minProperties: 1, maxProperties: 1 } });
    const inner = (schema.items as { patternProperties: Record<string, Record<string, unknown>> }).patternProperties["^[a-z]+$"]!;
    expect(inner.type).toBe("array");
    expect((inner.items as { patternProperties: Record<string, unknown> }).patternProperties["^\\d{2}:\\d{2}$"]).toEqual(schemaOf(ROW));
    expect(schemaOf(PLAIN)).toEqual({ type: "array", items: schemaOf(ROW) });
    expect(docRows(GROUPED, "t").map((r) => r.member)).toEqual(["t"]);
  });
});
