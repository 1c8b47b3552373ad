/**
 * Wind speed and direction against the meteorological convention as ECMWF and NWS publish it:
 * "the direction from which the wind is blowing ... a northerly wind is 0°, an easterly wind is
 * 90°, a southerly wind is 180°, and a westerly wind is 270°", with u = −|V| sin φ, v = −|V| cos φ
 * (https://confluence.ecmwf.int/pages/viewpage.action?pageId=133262398).
 */
import { describe, expect, it } from "vitest";
import { directionIcon, windDirection, windSpeed } from "../../../../server/weather/derived/wind.ts";

describe("windSpeed", () => {
  it("is the length of the (u, v) vector", () => {
    expect(windSpeed(3, 4)).toBe(5); // 3-4-5 triangle
    expect(windSpeed(-3, -4)).toBe(5);
    expect(windSpeed(0, 0)).toBe(0);
    expect(windSpeed(0, -7.5)).toBe(7.5);
  });
});

describe("windDirection", () => {
  it("gives the cardinal directions of the definition (where the wind blows from)", () => {
    expect(windDirection(5, 0)).toBeCloseTo(270, 12); // blows towards the east: a westerly
    expect(windDirection(0, 5)).toBeCloseTo(180, 12); // blows towards the north: a southerly
    expect(windDirection(-5, 0)).toBeCloseTo(90, 12); // towards the west: an easterly
    expect(windDirection(0, -5)).toBe(0); // towards the south: a northerly, 0 not 360
  });

  it("gives the intercardinal directions", () => {
    expect(windDirection(1, 1)).toBeCloseTo(225, 12); // towards the north-east: from the south-west
    expect(windDirection(-1, -1)).toBeCloseTo(45, 12); // from the north-east
    expect(windDirection(1, -1)).toBeCloseTo(315, 12); // from the north-west
    expect(windDirection(-1, 1)).toBeCloseTo(135, 12); // from the south-east
  });

  it("inverts the published u = −|V| sin φ, v = −|V| cos φ for every whole degree", () => {
    for (let phi = 0; phi < 360; phi++) {
      const rad = (phi * Math.PI) / 180;
      const speed = 7.3;
      const u = -speed * Math.sin(rad);
      const v = -speed * Math.cos(rad);
      const got = windDirection(u, v);
      expect(got).toBeGreaterThanOrEqual(0);
      expect(got).toBeLessThan(360);
      // angular distance, so that 359.9999999 and 0 compare as equal
      const diff = Math.abs(((got - phi + 540) % 360) - 180);
      expect(diff).toBeLessThan(1e-9);
      expect(windSpeed(u, v)).toBeCloseTo(speed, 12);
    }
  });

  it("gives 0 for a calm, also with negative zeros", () => {
    expect(windDirection(0, 0)).toBe(0);
    expect(windDirection(-0, -0)).toBe(0);
  });

  it("stays below 360 for a wind from just west of north", () => {
    // atan2(−u, −v) is a tiny negative angle here; + 360 must not produce 360
    expect(windDirection(1e-300, -1)).toBeLessThan(360);
    expect(windDirection(1e-300, -1)).toBeGreaterThanOrEqual(0);
  });

  it("passes NaN through", () => {
    expect(windDirection(Number.NaN, 1)).toBeNaN();
  });
});

describe("directionIcon", () => {
  it("rounds to the nearest multiple of 45 and writes 360 as 0", () => {
    expect(directionIcon(0)).toBe(0);
    expect(directionIcon(22.4)).toBe(0);
    expect(directionIcon(44)).toBe(45);
    expect(directionIcon(100)).toBe(90);
    expect(directionIcon(190)).toBe(180);
    expect(directionIcon(269.9)).toBe(270);
    expect(directionIcon(350)).toBe(0);
    expect(directionIcon(359.99)).toBe(0);
    expect(directionIcon(360)).toBe(0);
  });

  it("rounds exact halves clockwise: 22.5 → 45, 337.5 → 0", () => {
    expect(directionIcon(22.5)).toBe(45);
    expect(directionIcon(157.5)).toBe(180);
    expect(directionIcon(337.5)).toBe(0);
    expect(directionIcon(337.4)).toBe(315);
  });

  it("wraps angles outside [0, 360)", () => {
    expect(directionIcon(-10)).toBe(0);
    expect(directionIcon(-45)).toBe(315);
    expect(directionIcon(405)).toBe(45);
    expect(Object.is(directionIcon(-0.1), 0)).toBe(true);
  });

  it("only ever answers one of the eight values of the spec", () => {
    const allowed = new Set([0, 45, 90, 135, 180, 225, 270, 315]);
    for (let d = 0; d < 360; d += 0.1) expect(allowed.has(directionIcon(d))).toBe(true);
  });
});
