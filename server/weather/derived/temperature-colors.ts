/**
 * Colours of temperatures: one published scale from −40 °C to +50 °C, and the WCAG 2.1 contrast
 * ratio that picks black or white text on it.
 *
 * The scale is ColorBrewer's diverging "RdYlBu" scheme with 10 classes (Cynthia A. Brewer, Mark
 * Harrower and The Pennsylvania State University, https://colorbrewer2.org, Apache-2.0 licence),
 * read from blue to red, one anchor every 10 °C, interpolated linearly per sRGB channel between
 * anchors (channels rounded to integers) and clamped outside [−40, 50] °C. The same diverging
 * family is the usual one for temperature in climate graphics.
 */

export interface TemperatureColor {
  background: string;
  text: string;
}

export interface TemperatureAnchor {
  tempC: number;
  color: string;
}

/** The anchors of the scale: ColorBrewer RdYlBu, 10 classes, blue (cold) to red (hot). */
export const TEMPERATURE_SCALE: readonly TemperatureAnchor[] = Object.freeze([
  { tempC: -40, color: "#313695" },
  { tempC: -30, color: "#4575b4" },
  { tempC: -20, color: "#74add1" },
  { tempC: -10, color: "#abd9e9" },
  { tempC: 0, color: "#e0f3f8" },
  { tempC: 10, color: "#fee090" },
  { tempC: 20, color: "#fdae61" },
  { tempC: 30, color: "#f46d43" },
  { tempC: 40, color: "#d73027" },
  { tempC: 50, color: "#a50026" },
]);

/** Markdown description of the scale, for the decisions list. */
export const WEATHER_COLOR_SCALE_DOC =
  "Temperature colours (`colors` of every temperature member) follow one published scale: " +
  "ColorBrewer's diverging RdYlBu scheme with 10 classes (colorbrewer2.org), read from blue to " +
  "red, with one anchor every 10 °C from −40 °C (`#313695`) to +50 °C (`#a50026`): " +
  TEMPERATURE_SCALE.map((a) => `${a.tempC} °C \`${a.color}\``).join(", ") +
  ". Between anchors each sRGB channel is interpolated linearly and rounded; values are taken " +
  "per 0.1 °C and clamped outside −40…50 °C. `background` is `#rrggbb` in lower case; `text` is " +
  "`#000000` or `#ffffff`, whichever has the higher WCAG 2.1 contrast ratio with the background " +
  "(black on a tie), which is never below 4.5:1.";

const MIN_C = -40;
const MAX_C = 50;
const STEPS_PER_DEGREE = 10;
const BLACK = "#000000";
const WHITE = "#ffffff";

function parseHex(hex: string): [number, number, number] {
  if (!/^#[0-9a-fA-F]{6}$/.test(hex)) throw new TypeError(`expected a colour "#rrggbb", got "${hex}"`);
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}

function toHex(r: number, g: number, b: number): string {
  return `#${((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1)}`;
}

/**
 * WCAG 2.1 relative luminance of an sRGB colour (https://www.w3.org/TR/WCAG21/#dfn-relative-luminance):
 * each channel c = C/255 is linearised as c/12.92 when c <= 0.03928, else ((c + 0.055)/1.055)^2.4;
 * L = 0.2126 R + 0.7152 G + 0.0722 B.
 */
function relativeLuminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * WCAG 2.1 contrast ratio of two `#rrggbb` colours, (L1 + 0.05) / (L2 + 0.05) with L1 the lighter
 * (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio): from 1 (same) to 21 (black on white).
 * Throws a TypeError naming the value when a colour is not `#rrggbb`.
 */
export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** The colour of the `step`-th tenth of a degree above −40 °C (0 … 900). */
function colorAt(step: number): TemperatureColor {
  const perAnchor = 10 * STEPS_PER_DEGREE; // anchors are every 10 °C
  const i = Math.min(Math.floor(step / perAnchor), TEMPERATURE_SCALE.length - 2);
  const k = step - i * perAnchor;
  const lo = parseHex((TEMPERATURE_SCALE[i] as TemperatureAnchor).color);
  const hi = parseHex((TEMPERATURE_SCALE[i + 1] as TemperatureAnchor).color);
  // In whole steps the sum is an integer, so a channel exactly half-way rounds up (a fraction
  // k / 100 in floating point put 26 of the 901 such channels just below the half).
  const [r, g, b] = lo.map((c, n) => Math.round((c * (perAnchor - k) + (hi[n] as number) * k) / perAnchor)) as [number, number, number];
  const background = toHex(r, g, b);
  const text = contrastRatio(background, BLACK) >= contrastRatio(background, WHITE) ? BLACK : WHITE;
  return Object.freeze({ background, text });
}

/** One entry per 0.1 °C from −40.0 to 50.0 °C (901 entries), built once at module load. */
const TABLE: readonly TemperatureColor[] = Array.from(
  { length: (MAX_C - MIN_C) * STEPS_PER_DEGREE + 1 },
  (_, i) => colorAt(i),
);

/** What `temperatureColor` answers for NaN: black on white, no colour of the scale. */
export const NO_TEMPERATURE_COLOR: TemperatureColor = Object.freeze({ background: WHITE, text: BLACK });

/**
 * The colour of a temperature in °C, rounded to the nearest 0.1 °C and clamped to [−40, 50] °C:
 * one array index into a table built at module load (the objects are shared and frozen).
 * NaN gives `NO_TEMPERATURE_COLOR`; callers should send `null` values no colour at all.
 */
export function temperatureColor(tempC: number): TemperatureColor {
  if (Number.isNaN(tempC)) return NO_TEMPERATURE_COLOR;
  return TABLE[tableIndex(tempC)] as TemperatureColor;
}

/** The table entry of a temperature (not NaN): nearest 0.1 °C, clamped. */
function tableIndex(tempC: number): number {
  const i = Math.round((tempC - MIN_C) * STEPS_PER_DEGREE);
  return i < 0 ? 0 : i >= TABLE.length ? TABLE.length - 1 : i;
}

/** TABLE's entries as JSON text, in the same order: what the writers put in the answer. */
const TABLE_JSON: readonly string[] = TABLE.map((c) => JSON.stringify(c));

const NO_TEMPERATURE_COLOR_JSON = JSON.stringify(NO_TEMPERATURE_COLOR);

/** `temperatureColor(tempC)` as JSON text; NaN gives `NO_TEMPERATURE_COLOR`'s. */
export function temperatureColorJson(tempC: number): string {
  return Number.isNaN(tempC) ? NO_TEMPERATURE_COLOR_JSON : (TABLE_JSON[tableIndex(tempC)] as string);
}
