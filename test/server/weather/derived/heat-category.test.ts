/**
 * Heat-index categories against the NWS classification (NWS Tulsa, "Heat Index Information",
 * http://www.srh.noaa.gov/tsa/?n=heatindex): Caution 27–32 °C, Extreme Caution 32–41 °C,
 * Danger 41–54 °C, Extreme Danger 54 °C or higher; lower bounds inclusive (our documented choice).
 */
import { describe, expect, it } from "vitest";
import { heatIndexC } from "../../../../server/weather/derived/felt.ts";
import { heatIndexCategory } from "../../../../server/weather/derived/heat-category.ts";

const fToC = (f: number): number => ((f - 32) * 5) / 9;

describe("heatIndexCategory", () => {
  it("gives the empty string below 27 °C and for NaN", () => {
    expect(heatIndexCategory(-10)).toBe("");
    expect(heatIndexCategory(26.99)).toBe("");
    expect(heatIndexCategory(Number.NaN)).toBe("");
  });

  it("takes each published lower bound as inclusive", () => {
    expect(heatIndexCategory(27)).toBe("1/4");
    expect(heatIndexCategory(31.99)).toBe("1/4");
    expect(heatIndexCategory(32)).toBe("2/4");
    expect(heatIndexCategory(40.99)).toBe("2/4");
    expect(heatIndexCategory(41)).toBe("3/4");
    expect(heatIndexCategory(53.99)).toBe("3/4");
    expect(heatIndexCategory(54)).toBe("4/4");
    expect(heatIndexCategory(70)).toBe("4/4");
  });

  it("classifies NWS chart cells as the chart's colour bands do", () => {
    // chart cells (°F): 90 °F/60 % = 100 (Extreme Caution), 96 °F/65 % = 121 (Danger),
    // 104 °F/55 % = 137 (Extreme Danger), 84 °F/40 % = 83 (Caution)
    expect(heatIndexCategory(heatIndexC(fToC(90), 60))).toBe("2/4");
    expect(heatIndexCategory(heatIndexC(fToC(96), 65))).toBe("3/4");
    expect(heatIndexCategory(heatIndexC(fToC(104), 55))).toBe("4/4");
    expect(heatIndexCategory(heatIndexC(fToC(84), 40))).toBe("1/4");
  });

  it("never answers anything outside the spec's list", () => {
    const allowed = new Set(["", "1/4", "2/4", "3/4", "4/4"]);
    for (let c = -50; c <= 80; c += 0.1) expect(allowed.has(heatIndexCategory(c))).toBe(true);
  });
});
