/** The `color` member of a temperature as JSON text. */
import { temperatureColorJson } from "./derived/temperature-colors.ts";

/** The `color` value of a rounded temperature as JSON: its object, or null. */
export function colorJson(x: number): string {
  return x !== x ? "null" : temperatureColorJson(x);
}
