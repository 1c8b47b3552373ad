/**
 * The published temperature colour scale computed by hand, independently of
 * server/weather/derived/temperature-colors.ts, for tests that need the colour of a value:
 * ColorBrewer RdYlBu with 10 classes (colorbrewer2.org), blue to red, one anchor every 10 °C from
 * −40 °C to +50 °C; between anchors each sRGB channel is interpolated linearly and rounded (half
 * up), computed in whole tenths of a degree so that the arithmetic is exact; clamped outside the
 * scale. The text is black when black contrasts at least as much as white (WCAG 2.1), i.e. when
 * the background's relative luminance L satisfies (L + 0.05)² >= 0.05 × 1.05.
 */

/** ColorBrewer RdYlBu, 10 classes, from blue to red, as published on colorbrewer2.org. */
export const RDYLBU_10 = ["#313695", "#4575b4", "#74add1", "#abd9e9", "#e0f3f8", "#fee090", "#fdae61", "#f46d43", "#d73027", "#a50026"] as const;

const channels = (hex: string): number[] => [1, 3, 5].map((k) => Number.parseInt(hex.slice(k, k + 2), 16));

/** WCAG 2.1 relative luminance (https://www.w3.org/TR/WCAG21/#dfn-relative-luminance). */
function luminance(rgb: readonly number[]): number {
  const [r, g, b] = rgb.map((c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The colour of a temperature in °C (rounded to the tenth first), as the wire's `color` object. */
export function referenceTemperatureColor(tempC: number): { background: string; text: string } {
  const tenths = Math.min(Math.max(Math.round(tempC * 10), -400), 500) + 400; // 0 … 900
  const segment = Math.min(Math.floor(tenths / 100), 8);
  const k = tenths - 100 * segment; // 0 … 100 tenths past the lower anchor
  const lo = channels(RDYLBU_10[segment]!);
  const hi = channels(RDYLBU_10[segment + 1]!);
  // (lo × (100 − k) + hi × k) is an integer: dividing by 100 and rounding half up is exact.
  const rgb = lo.map((c, i) => Math.floor((c * (100 - k) + hi[i]! * k + 50) / 100));
  const background = "#" + rgb.map((c) => c.toString(16).padStart(2, "0")).join("");
  const text = (luminance(rgb) + 0.05) ** 2 >= 0.05 * 1.05 ? "#000000" : "#ffffff";
  return { background, text };
}
