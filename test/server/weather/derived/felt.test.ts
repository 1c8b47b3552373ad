/**
 * Wind chill and heat index against the NWS published charts, every cell, typed in from the charts
 * (never from our code). The charts are in °F and mph; the test converts to °C and km/h on the
 * way in and back to °F on the way out.
 *
 * - NWS Wind Chill Chart (2001 index), https://www.weather.gov/safety/cold-wind-chill-chart
 *   (chart PDF: https://www.weather.gov/media/safety/windchillchart3.pdf). Whole degrees, so the
 *   formula must land within half a degree of each cell. Its worked example: 0 °F and 15 mph give
 *   −19 °F.
 * - NWS Heat Index Chart (80–110 °F by 40–100 % RH; the chart's blank cells above ~137 °F stay
 *   blank here), as printed in text by NWS Tulsa, http://www.srh.noaa.gov/tsa/?n=heatindex (the
 *   chart of https://www.weather.gov/safety/heat-index). Its worked example: 90 °F and 60 % give
 *   100 °F. The chart prints Steadman's apparent temperatures in whole degrees; the WPC page gives
 *   the regression's error as ±1.3 °F; we allow ±1 °F (measured: the largest gap is 0.51 °F,
 *   at 90 °F and 45 %).
 */
import { describe, expect, it } from "vitest";
import { feltTemperatureC, heatIndexC, windChillC } from "../../../../server/weather/derived/felt.ts";

const fToC = (f: number): number => ((f - 32) * 5) / 9;
const cToF = (c: number): number => (c * 9) / 5 + 32;
const MPH_TO_KMH = 1.609344;

/** NWS Wind Chill Chart: rows are air temperature (°F), columns wind speed 5..60 mph by 5. */
const WIND_CHILL_MPH = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60];
const WIND_CHILL_CHART: Record<number, number[]> = {
  40: [36, 34, 32, 30, 29, 28, 28, 27, 26, 26, 25, 25],
  35: [31, 27, 25, 24, 23, 22, 21, 20, 19, 19, 18, 17],
  30: [25, 21, 19, 17, 16, 15, 14, 13, 12, 12, 11, 10],
  25: [19, 15, 13, 11, 9, 8, 7, 6, 5, 4, 4, 3],
  20: [13, 9, 6, 4, 3, 1, 0, -1, -2, -3, -3, -4],
  15: [7, 3, 0, -2, -4, -5, -7, -8, -9, -10, -11, -11],
  10: [1, -4, -7, -9, -11, -12, -14, -15, -16, -17, -18, -19],
  5: [-5, -10, -13, -15, -17, -19, -21, -22, -23, -24, -25, -26],
  0: [-11, -16, -19, -22, -24, -26, -27, -29, -30, -31, -32, -33],
  [-5]: [-16, -22, -26, -29, -31, -33, -34, -36, -37, -38, -39, -40],
  [-10]: [-22, -28, -32, -35, -37, -39, -41, -43, -44, -45, -46, -48],
  [-15]: [-28, -35, -39, -42, -44, -46, -48, -50, -51, -52, -54, -55],
  [-20]: [-34, -41, -45, -48, -51, -53, -55, -57, -58, -60, -61, -62],
  [-25]: [-40, -47, -51, -55, -58, -60, -62, -64, -65, -67, -68, -69],
  [-30]: [-46, -53, -58, -61, -64, -67, -69, -71, -72, -74, -75, -76],
  [-35]: [-52, -59, -64, -68, -71, -73, -76, -78, -79, -81, -82, -84],
  [-40]: [-57, -66, -71, -74, -78, -80, -82, -84, -86, -88, -89, -91],
  [-45]: [-63, -72, -77, -81, -84, -87, -89, -91, -93, -95, -97, -98],
};

/** NWS Heat Index Chart: rows are air temperature (°F), columns RH 40..100 % by 5; short rows end blank. */
const HEAT_INDEX_RH = [40, 45, 50, 55, 60, 65, 70, 75, 80, 85, 90, 95, 100];
const HEAT_INDEX_CHART: Record<number, number[]> = {
  110: [136],
  108: [130, 137],
  106: [124, 130, 137],
  104: [119, 124, 131, 137],
  102: [114, 119, 124, 130, 137],
  100: [109, 114, 118, 124, 129, 136],
  98: [105, 109, 113, 117, 123, 128, 134],
  96: [101, 104, 108, 112, 116, 121, 126, 132],
  94: [97, 100, 103, 106, 110, 114, 119, 124, 129, 135],
  92: [94, 96, 99, 101, 105, 108, 112, 116, 121, 126, 131],
  90: [91, 93, 95, 97, 100, 103, 106, 109, 113, 117, 122, 127, 132],
  88: [88, 89, 91, 93, 95, 98, 100, 103, 106, 110, 113, 117, 121],
  86: [85, 87, 88, 89, 91, 93, 95, 97, 100, 102, 105, 108, 112],
  84: [83, 84, 85, 86, 88, 89, 90, 92, 94, 96, 98, 100, 103],
  82: [81, 82, 83, 84, 84, 85, 86, 88, 89, 90, 91, 93, 95],
  80: [80, 80, 81, 81, 82, 82, 83, 84, 84, 85, 86, 86, 87],
};

function cells(chart: Record<number, number[]>, columns: number[]): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (const [row, values] of Object.entries(chart)) {
    values.forEach((value, i) => out.push([Number(row), columns[i] as number, value]));
  }
  return out;
}

describe("windChillC against the NWS Wind Chill Chart", () => {
  const all = cells(WIND_CHILL_CHART, WIND_CHILL_MPH);

  it("gives the chart's worked example: 0 °F and 15 mph → −19 °F", () => {
    expect(cToF(windChillC(fToC(0), 15 * MPH_TO_KMH))).toBeCloseTo(-19, 0);
  });

  it.each(all)("%i °F, %i mph → %i °F (within the chart's rounding)", (tF, mph, expected) => {
    const got = cToF(windChillC(fToC(tF), mph * MPH_TO_KMH));
    expect(Math.abs(got - expected)).toBeLessThanOrEqual(0.5 + 1e-9);
  });
});

describe("heatIndexC against the NWS Heat Index Chart", () => {
  const all = cells(HEAT_INDEX_CHART, HEAT_INDEX_RH);

  it("gives the chart's worked example: 90 °F and 60 % → 100 °F", () => {
    expect(Math.abs(cToF(heatIndexC(fToC(90), 60)) - 100)).toBeLessThanOrEqual(1);
  });

  // The chart prints Steadman's values, which the bare regression reproduces; the WPC page's
  // humid adjustment (+ [(RH − 85)/10] × [(87 − T)/5] for RH > 85 % and 80–87 °F) is part of the
  // NWS algorithm but not of the chart: in those 12 cells the chart matches our value minus that
  // published adjustment (we differ from the printed chart by up to 2.3 °F at 80 °F, 100 %).
  const humid = (tF: number, rh: number): boolean => rh > 85 && tF >= 80 && tF <= 87;
  const plain = all.filter(([tF, rh]) => !humid(tF, rh));
  const adjusted = all.filter(([tF, rh]) => humid(tF, rh));

  it.each(plain)("%i °F, %i %% → %i °F (±1 °F)", (tF, rh, expected) => {
    const got = cToF(heatIndexC(fToC(tF), rh));
    expect(Math.abs(got - expected)).toBeLessThanOrEqual(1);
  });

  it.each(adjusted)("%i °F, %i %% → %i °F + the humid adjustment (±1 °F)", (tF, rh, expected) => {
    const got = cToF(heatIndexC(fToC(tF), rh));
    const adjustment = ((rh - 85) / 10) * ((87 - tF) / 5);
    expect(Math.abs(got - adjustment - expected)).toBeLessThanOrEqual(1);
  });

  it("uses the simple formula below 80 °F: 0.5 × (T + 61 + (T − 68) × 1.2 + RH × 0.094)", () => {
    // hand-computed from the WPC formula: 70 °F, 50 % → 0.5 × (70 + 61 + 2.4 + 4.7) = 69.05 °F
    expect(cToF(heatIndexC(fToC(70), 50))).toBeCloseTo(69.05, 9);
    // 80 °F, 0 % → 0.5 × (80 + 61 + 14.4 + 0) = 77.7 °F, below 80: the simple value stands
    expect(cToF(heatIndexC(fToC(80), 0))).toBeCloseTo(77.7, 9);
  });

  it("applies the dry adjustment (RH < 13 %, 80–112 °F), hand-computed from the WPC page", () => {
    // 100 °F, 10 %: Rothfusz = −42.379 + 204.901523 + 101.4333127 − 224.75541 − 68.3783
    //   − 5.481717 + 122.874 + 8.5282 − 1.99 = 94.6521…; adjustment (3/4)·sqrt(12/17) = 0.63012…
    const rothfusz =
      -42.379 + 204.901523 + 101.4333127 - 224.75541 - 68.3783 - 5.481717 + 122.874 + 8.5282 - 1.99;
    const adjustment = (3 / 4) * Math.sqrt(12 / 17);
    expect(cToF(heatIndexC(fToC(100), 10))).toBeCloseTo(rothfusz - adjustment, 6);
  });

  it("applies the humid adjustment (RH > 85 %, 80–87 °F), hand-computed from the WPC page", () => {
    // 82 °F, 95 %: adjustment = ((95 − 85) / 10) × ((87 − 82) / 5) = 1
    const t = 82;
    const rh = 95;
    const rothfusz =
      -42.379 + 2.04901523 * t + 10.14333127 * rh - 0.22475541 * t * rh - 0.00683783 * t * t -
      0.05481717 * rh * rh + 0.00122874 * t * t * rh + 0.00085282 * t * rh * rh -
      0.00000199 * t * t * rh * rh;
    expect(cToF(heatIndexC(fToC(t), rh))).toBeCloseTo(rothfusz + 1, 6);
  });

  it("passes NaN through", () => {
    expect(heatIndexC(30, Number.NaN)).toBeNaN();
    expect(heatIndexC(Number.NaN, 50)).toBeNaN();
  });
});

describe("feltTemperatureC", () => {
  it("is the wind chill at or below 10 °C with wind above 4.8 km/h", () => {
    // 0 °F (−17.8 °C) and 15 mph (6.7056 m/s) → −19 °F on the NWS chart
    expect(Math.round(cToF(feltTemperatureC(fToC(0), (15 * 1609.344) / 3600, 50)))).toBe(-19);
    expect(feltTemperatureC(10, 5, 50)).toBe(windChillC(10, 18));
    expect(feltTemperatureC(10, 5, 50)).toBeLessThan(10);
  });

  it("is T itself in the cold when the wind is 4.8 km/h or less", () => {
    expect(feltTemperatureC(-5, 4.8 / 3.6, 50)).toBe(-5);
    expect(feltTemperatureC(-5, 0, 50)).toBe(-5);
    expect(feltTemperatureC(-5, Number.NaN, 50)).toBe(-5);
  });

  it("is the heat index from 26.7 °C", () => {
    // 90 °F and 60 % → 100 °F on the NWS chart
    expect(Math.abs(cToF(feltTemperatureC(fToC(90), 2, 60)) - 100)).toBeLessThanOrEqual(1);
    expect(feltTemperatureC(26.7, 2, 80)).toBe(heatIndexC(26.7, 80));
  });

  it("is T in the heat when the humidity is missing", () => {
    expect(feltTemperatureC(35, 2, Number.NaN)).toBe(35);
  });

  it("is T between 10 °C and 26.7 °C whatever the wind and humidity", () => {
    expect(feltTemperatureC(10.1, 20, 50)).toBe(10.1);
    expect(feltTemperatureC(20, 20, 100)).toBe(20);
    expect(feltTemperatureC(26.6, 0, 100)).toBe(26.6);
  });

  it("passes a missing temperature through as NaN", () => {
    expect(feltTemperatureC(Number.NaN, 5, 50)).toBeNaN();
  });
});
