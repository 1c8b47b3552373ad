/**
 * A language for describing a JSON answer written row by row from a table of columns (the weather
 * slot: slot-shape.ts), so that each member is described once and its JSON Schema (schemaOf),
 * its row of the docs table (docRows) and its writer (compileWriter) all come from that one
 * description.
 *
 * The writer is compiled once: the constant text between values (keys, units, braces) is merged
 * and encoded to bytes at load, and writing a row is a walk over a flat list of steps, each
 * copying a constant or writing one value, with no object built per row.
 */
import type { JsonBytes } from "./json-bytes.ts";

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
export type WriteValue<T> = (w: JsonBytes, t: T, i: number) => void;

export type Node<T> =
  | { kind: "object"; members: readonly Member<T>[] }
  /** `{"value":<number or null>,"unit":"<unit>", ...extras}` */
  | { kind: "measure"; unit: string; value: (t: T, i: number) => number; extras?: readonly Member<T>[]; doc?: MemberDoc }
  /** A constant string. */
  | { kind: "const"; text: string }
  /** A value written by its own function, with its schema. */
  | { kind: "value"; schema: Schema; write: WriteValue<T>; doc?: MemberDoc };

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
  const members = node.kind === "object" ? node.members : node.kind === "measure" ? (node.extras ?? []) : [];
  for (const m of members) rows.push(...docRows(m.node, path === "" ? m.key : `${path}.${m.key}`));
  return rows;
}

const encoder = new TextEncoder();

/** A row's writer: the description compiled into steps (constant bytes merged, values in between). */
export function compileWriter<T>(node: Node<T>): WriteValue<T> {
  const steps = stepsOf(node);
  return (w, t, i) => {
    for (let s = 0; s < steps.length; s++) steps[s]!(w, t, i);
  };
}

function stepsOf<T>(root: Node<T>): WriteValue<T>[] {
  const steps: WriteValue<T>[] = [];
  let text = "";
  const flush = (): void => {
    if (text === "") return;
    const bytes = encoder.encode(text);
    steps.push((w) => void w.raw(bytes));
    text = "";
  };
  const value = (write: WriteValue<T>): void => {
    flush();
    steps.push(write);
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
      flush();
      const keyBytes = encoder.encode(key);
      const write = compileWriter(m.node);
      const present = m.present;
      steps.push((w, t, i) => {
        if (!present(t, i)) return;
        w.raw(keyBytes);
        write(w, t, i);
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
      case "measure": {
        text += '{"value":';
        const get = node.value;
        value((w, t, i) => void w.num(get(t, i)));
        text += `,"unit":${JSON.stringify(node.unit)}`;
        members(node.extras ?? [], true);
        text += "}";
        return;
      }
      case "const":
        text += JSON.stringify(node.text);
        return;
      case "value":
        value(node.write);
        return;
    }
  };
  walk(root);
  flush();
  return steps;
}
