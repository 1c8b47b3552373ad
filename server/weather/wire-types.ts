/**
 * Measure objects of the weather answers as they go on the wire (field names exactly the spec's).
 * The time slot itself is written directly as JSON (slot-table.ts; its schema in slot-schema.ts).
 */

export interface Measure {
  /** null when the model does not provide the quantity (never 0, never another model's value). */
  value: number | null;
  unit: string;
}

export interface ColorPair {
  background: string;
  text: string;
}

export interface ColoredMeasure extends Measure {
  /** null when `value` is null. */
  color: ColorPair | null;
}
