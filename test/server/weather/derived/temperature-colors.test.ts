/**
 * Temperature colours: the anchors are ColorBrewer RdYlBu (10 classes) as published on
 * colorbrewer2.org; the contrast ratio follows WCAG 2.1
 * (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio), checked against published reference values: black on white 21:1 (the top of the WCAG range),
 * #777777 on white 4.48:1 and #767676 on white 4.54:1 (the values the WCAG working group settled
 * on in 2016 and WebAIM/axe report, http://www.davidmacd.com/test/check-color.html).
 */
import { describe, expect, it } from "vitest";
import {
  contrastRatio,
  NO_TEMPERATURE_COLOR,
  TEMPERATURE_SCALE,
  temperatureColor,
  temperatureColorJson,
  WEATHER_COLOR_SCALE_DOC,
} from "../../../../server/weather/derived/temperature-colors.ts";
import { RDYLBU_10, referenceTemperatureColor } from "../../../helpers/reference-temperature-color.ts";

describe("contrastRatio", () => {
  it("matches the WCAG reference values", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 10);
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 10);
    expect(contrastRatio("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
    expect(contrastRatio("#777777", "#ffffff")).toBeLessThan(4.5); // fails AA, no rounding up
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
    expect(contrastRatio("#123456", "#123456")).toBe(1);
  });

  it("accepts upper case and refuses what is not #rrggbb, naming the value", () => {
    expect(contrastRatio("#FFFFFF", "#000000")).toBeCloseTo(21, 10);
    expect(() => contrastRatio("#fff", "#000000")).toThrow('expected a colour "#rrggbb", got "#fff"');
  });
});

describe("temperatureColor", () => {
  it("puts the published anchor colours at their temperatures", () => {
    expect(TEMPERATURE_SCALE.map((a) => a.color)).toEqual(RDYLBU_10);
    RDYLBU_10.forEach((color, i) => expect(temperatureColor(-40 + 10 * i).background).toBe(color));
  });

  it("interpolates each channel linearly between anchors", () => {
    // half-way from #e0f3f8 (0 °C) to #fee090 (10 °C): (224 + 254) / 2 = 239 = ef,
    // (243 + 224) / 2 = 233.5 → 234 = ea, (248 + 144) / 2 = 196 = c4
    expect(temperatureColor(5).background).toBe("#efeac4");
    // 11.1 °C, 11 tenths from #fee090 towards #fdae61: (254 × 89 + 253 × 11) / 100 = 253.89 → fe,
    // (224 × 89 + 174 × 11) / 100 = 218.5 → 219 = db (a floating-point fraction gave 218),
    // (144 × 89 + 97 × 11) / 100 = 138.83 → 139 = 8b
    expect(temperatureColor(11.1).background).toBe("#fedb8b");
  });

  it("gives every tenth of a degree the colour of the scale computed by hand (test/helpers)", () => {
    for (let i = -400; i <= 500; i++) expect(temperatureColor(i / 10), `${i / 10} °C`).toEqual(referenceTemperatureColor(i / 10));
  });

  it("clamps outside −40…50 °C and rounds to the nearest tenth", () => {
    expect(temperatureColor(-60)).toBe(temperatureColor(-40));
    expect(temperatureColor(75)).toBe(temperatureColor(50));
    expect(temperatureColor(12.34)).toBe(temperatureColor(12.3));
    expect(temperatureColor(12.36)).toBe(temperatureColor(12.4));
  });

  it("answers a neutral colour for NaN", () => {
    expect(temperatureColor(Number.NaN)).toBe(NO_TEMPERATURE_COLOR);
  });

  it("gives as JSON text the hand-computed colour of every tenth of a degree, clamped and rounded the same", () => {
    for (let i = -400; i <= 500; i++) expect(JSON.parse(temperatureColorJson(i / 10)), `${i / 10} °C`).toEqual(referenceTemperatureColor(i / 10));
    expect(temperatureColorJson(-60)).toBe(temperatureColorJson(-40));
    expect(temperatureColorJson(75)).toBe(temperatureColorJson(50));
    expect(temperatureColorJson(12.36)).toBe(temperatureColorJson(12.4));
    expect(JSON.parse(temperatureColorJson(Number.NaN))).toEqual(NO_TEMPERATURE_COLOR);
  });

  // The published ">= 4.5:1" needs no assertion of its own: against black and white the ratios of
  // any colour multiply to 21 (WCAG: (L + 0.05) / 0.05 × 1.05 / (L + 0.05)), so the higher one is at
  // least √21 ≈ 4.58. What can go wrong is the choice, and the ratios it is made with.
  it("chooses the text colour of higher contrast for every tenth of a degree", () => {
    for (let i = -400; i <= 500; i++) {
      const { background, text } = temperatureColor(i / 10);
      expect(background).toMatch(/^#[0-9a-f]{6}$/);
      expect(["#000000", "#ffffff"]).toContain(text);
      const chosen = contrastRatio(background, text);
      const other = contrastRatio(background, text === "#000000" ? "#ffffff" : "#000000");
      expect(chosen).toBeGreaterThanOrEqual(other);
      expect(chosen * other).toBeCloseTo(21, 9);
    }
  });

  it("has a Markdown description naming every anchor", () => {
    for (const a of TEMPERATURE_SCALE) expect(WEATHER_COLOR_SCALE_DOC).toContain(a.color);
    expect(WEATHER_COLOR_SCALE_DOC).toContain("WCAG 2.1");
  });
});
