/** The `color` member of a temperature as JSON text, each distinct colour pair written once. */
import { temperatureColor } from "./derived/temperature-colors.ts";

const colorText = new Map<object, string>();

/** The `color` value of a rounded temperature as JSON: its object, or null. */
export function colorJson(x: number): string {
  if (x !== x) return "null";
  const c = temperatureColor(x);
  let text = colorText.get(c);
  if (text === undefined) {
    text = JSON.stringify(c);
    colorText.set(c, text);
  }
  return text;
}
