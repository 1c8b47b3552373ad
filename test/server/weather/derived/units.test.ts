/**
 * Unit conversions against their definitions: 0 °C = 273.15 K (SI Brochure, 9th ed., §2.3.1), the
 * ICAO standard atmosphere's sea-level pressure 101 325 Pa = 1013.25 hPa (ICAO Doc 7488), and the
 * rounding rule "halves away from zero" on worked examples.
 */
import { describe, expect, it } from "vitest";
import { kelvinToC, paToHpa, round1 } from "../../../../server/weather/derived/units.ts";

describe("kelvinToC", () => {
  it("follows the SI definition", () => {
    expect(kelvinToC(273.15)).toBe(0);
    expect(kelvinToC(0)).toBeCloseTo(-273.15, 12); // absolute zero
    expect(kelvinToC(373.15)).toBeCloseTo(100, 10); // water boils at 1 atm (ITS-90 ~99.97, close)
    expect(kelvinToC(288.15)).toBeCloseTo(15, 10); // ICAO standard atmosphere sea-level temperature
  });
});

describe("paToHpa", () => {
  it("divides by 100", () => {
    expect(paToHpa(101325)).toBe(1013.25); // ICAO standard sea-level pressure
    expect(paToHpa(0)).toBe(0);
    expect(paToHpa(50000)).toBe(500); // the 500 hPa level
  });
});

describe("round1", () => {
  it("rounds to one decimal", () => {
    expect(round1(12.34)).toBe(12.3);
    expect(round1(12.36)).toBe(12.4);
    expect(round1(-7.81)).toBe(-7.8);
    expect(round1(3)).toBe(3);
  });

  it("rounds halves away from zero", () => {
    expect(round1(1.25)).toBe(1.3);
    expect(round1(-1.25)).toBe(-1.3);
    expect(round1(0.05)).toBe(0.1);
    expect(round1(-0.05)).toBe(-0.1);
    expect(round1(0.15)).toBe(0.2); // stored as 0.1499…, still read as a half
    expect(round1(-2.45)).toBe(-2.5);
  });

  it("never writes −0", () => {
    expect(Object.is(round1(-0.04), 0)).toBe(true);
    expect(Object.is(round1(-0), 0)).toBe(true);
    expect(JSON.stringify(round1(-0.01))).toBe("0");
  });

  it("passes NaN and infinities through", () => {
    expect(round1(Number.NaN)).toBeNaN();
    expect(round1(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
  });
});
