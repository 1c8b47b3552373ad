/** The `color` member of a temperature as JSON bytes, each distinct colour pair encoded once. */
import { temperatureColor } from "./derived/temperature-colors.ts";
import { fragment } from "./json-bytes.ts";

const NULL = fragment("null");
const colorBytes = new Map<object, Uint8Array>();

/** The `color` value of a rounded temperature as JSON: its object, or null. */
export function colorJson(x: number): Uint8Array {
  if (x !== x) return NULL;
  const c = temperatureColor(x);
  let b = colorBytes.get(c);
  if (b === undefined) {
    b = fragment(JSON.stringify(c));
    colorBytes.set(c, b);
  }
  return b;
}
