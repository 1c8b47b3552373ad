/**
 * A language for describing a JSON answer written row by row from a table of columns (the weather
 * slot: slot-shape.ts), so that each member is described once and its JSON Schema (schemaOf),
 * its row of the docs table (docRows) and its writer (compileWriter) all come from that one
 * description.
 *
 * The writer is compiled once: the constant text between values (keys, units, braces) is merged
 * at load, and writing a row is a walk over a flat list of steps, each writing the constant text
 * before one value and the value, with no object built per row. One step per value, not one per
 * constant and one per value: the calls between steps were much of a slot's cost (writing point
 * weather's answers in process: 12-14 against 9-11 µs).
 */
import type { JsonText } from "./json-text.ts";

export type Schema = Record<string, unknown>;

/** What the docs table says of a member. */
export interface MemberDoc {
  /** The member's name in the table; default its dotted path, e.g. `temperature.surface`. */
  label?: string;
  /** Default: the measure's unit. */
  unit?: string;
  /** Vocabulary variables read (datasets/forecast/variables.ts) and the model field they come from. */
  source: string;
  window: string;
  formula: string;
}

/** Writes the value of row `i` of table `T`. */
export type WriteValue<T> = (w: JsonText, t: T, i: number) => void;

export type Node<T> =
  | { kind: "object"; members: readonly Member<T>[] }
  /** `{"value":<number or null>,"unit":"<unit>", ...extras}` */
  | { kind: "measure"; unit: string; value: (t: T, i: number) => number; extras?: readonly Member<T>[]; doc?: MemberDoc }
  /** A constant string. */
  | { kind: "const"; text: string }
  /** A value written by its own function, with its schema. */
  | { kind: "value"; schema: Schema; write: WriteValue<T>; doc?: MemberDoc }
  /**
   * `[item, ...]`, one item per row of `rows(t, i)`; with `key`, each item is the one member of
   * its object, `{"<key>":item}` (the spec's grouping by local date and time). Keys are ASCII.
   */
  | { kind: "list"; rows: (t: T, i: number) => RowRange; item: Node<T>; key?: ListKey<T>; description?: string };

/** Rows [from, to) of a table. */
export interface RowRange {
  from: number;
  to: number;
}

/** The key of a list's items: its pattern (for the schema) and its text for row j. */
export interface ListKey<T> {
  pattern: string;
  of: (t: T, j: number) => string;
}

export interface Member<T> {
  key: string;
  node: Node<T>;
  /** Written only when true for the row (never the first member of its object). */
  present?: (t: T, i: number) => boolean;
  /** A member of the row's own object that may be absent: its description for the schema. */
  description?: string;
}

const nullableNumber: Schema = { type: ["number", "null"] };

export function schemaOf<T>(node: Node<T>): Schema {
  switch (node.kind) {
    case "object":
      return objectSchema(node.members, {});
    case "measure":
      return objectSchema(node.extras ?? [], { value: nullableNumber, unit: { const: node.unit } });
    case "const":
      return { const: node.text };
    case "value":
      return node.schema;
    case "list": {
      const item = schemaOf(node.item);
      const items = node.key ? { type: "object", minProperties: 1, maxProperties: 1, patternProperties: { [node.key.pattern]: item } } : item;
      return { type: "array", ...(node.description === undefined ? {} : { description: node.description }), items };
    }
  }
}

function objectSchema<T>(members: readonly Member<T>[], first: Record<string, Schema>): Schema {
  const properties: Record<string, Schema> = { ...first };
  const required = Object.keys(first);
  for (const m of members) {
    const s = schemaOf(m.node);
    properties[m.key] = m.description === undefined ? s : { ...s, description: m.description };
    if (m.present === undefined) required.push(m.key);
  }
  return { type: "object", required, properties };
}

export interface DocRow {
  member: string;
  unit: string;
  source: string;
  window: string;
  formula: string;
}

/** The documented members in the answer's order. */
export function docRows<T>(node: Node<T>, path = ""): DocRow[] {
  const rows: DocRow[] = [];
  const doc = node.kind === "measure" || node.kind === "value" ? node.doc : undefined;
  if (doc) rows.push({ member: doc.label ?? path, unit: doc.unit ?? (node.kind === "measure" ? node.unit : "-"), source: doc.source, window: doc.window, formula: doc.formula });
  if (node.kind === "list") return docRows(node.item, path);
  const members = node.kind === "object" ? node.members : node.kind === "measure" ? (node.extras ?? []) : [];
  for (const m of members) rows.push(...docRows(m.node, path === "" ? m.key : `${path}.${m.key}`));
  return rows;
}

/** A row's writer: the description compiled into steps (constant text merged, values in between). */
export function compileWriter<T>(node: Node<T>): WriteValue<T> {
  const steps = stepsOf(node);
  return (w, t, i) => {
    for (let s = 0; s < steps.length; s++) steps[s]!(w, t, i);
  };
}

function listWriter<T>(rows: (t: T, i: number) => RowRange, item: WriteValue<T>, key: ListKey<T> | undefined): WriteValue<T> {
  return (w, t, i) => {
    const { from, to } = rows(t, i);
    w.text("[");
    for (let j = from; j < to; j++) {
      if (key) w.text(j > from ? ',{"' : '{"').text(key.of(t, j)).text('":');
      else if (j > from) w.text(",");
      item(w, t, j);
      if (key) w.text("}");
    }
    w.text("]");
  };
}

function stepsOf<T>(root: Node<T>): WriteValue<T>[] {
  const steps: WriteValue<T>[] = [];
  /** The constant text since the last value: written by the next value's step. */
  let text = "";
  const value = (write: WriteValue<T>): void => {
    const before = text;
    text = "";
    steps.push(before === "" ? write : (w, t, i) => void write(w.text(before), t, i));
  };
  const number = (get: (t: T, i: number) => number): void => {
    const before = text;
    text = "";
    steps.push((w, t, i) => void w.text(before).num(get(t, i)));
  };
  const members = (list: readonly Member<T>[], opened: boolean): void => {
    list.forEach((m, k) => {
      const key = `${k === 0 && !opened ? "" : ","}${JSON.stringify(m.key)}:`;
      if (m.present === undefined) {
        text += key;
        walk(m.node);
        return;
      }
      // An optional member: its own steps, run when it is present.
      const write = compileWriter(m.node);
      const present = m.present;
      value((w, t, i) => {
        if (present(t, i)) write(w.text(key), t, i);
      });
    });
  };
  const walk = (node: Node<T>): void => {
    switch (node.kind) {
      case "object":
        text += "{";
        members(node.members, false);
        text += "}";
        return;
      case "measure":
        text += '{"value":';
        number(node.value);
        text += `,"unit":${JSON.stringify(node.unit)}`;
        members(node.extras ?? [], true);
        text += "}";
        return;
      case "const":
        text += JSON.stringify(node.text);
        return;
      case "value":
        value(node.write);
        return;
      case "list":
        value(listWriter(node.rows, compileWriter(node.item), node.key));
        return;
    }
  };
  walk(root);
  const after = text;
  if (after !== "") steps.push((w) => void w.text(after));
  return steps;
}
