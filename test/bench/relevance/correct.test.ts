/**
 * The outside view's rule for a right answer (bench/relevance/correct.ts): within 30 km of the
 * outside gazetteer's point and the same country. Distances checked against the sphere's own
 * geometry (one degree of a great circle on a 6,371 km sphere is 111.195 km) and the real rows of
 * Kunsan / Gunsan and Porto in both sources.
 */
import { describe, expect, it } from "vitest";
import { CORRECT_WITHIN_KM, distanceKm, isCorrect } from "../../../bench/relevance/correct.ts";
import { parseOutsideRows } from "../../../bench/relevance/outside-gazetteer.ts";
import { geonamesRows, OUTSIDE_ROWS } from "./fixtures.ts";

const DEGREE_KM = (2 * Math.PI * 6371) / 360;

describe("distanceKm", () => {
  it("gives a degree of latitude or of longitude on the equator as 1/360 of the great circle", () => {
    expect(distanceKm({ lat: 0, lon: 0 }, { lat: 1, lon: 0 })).toBeCloseTo(DEGREE_KM, 6);
    expect(distanceKm({ lat: 0, lon: 179.5 }, { lat: 0, lon: -179.5 })).toBeCloseTo(DEGREE_KM, 6);
    expect(distanceKm({ lat: 90, lon: 0 }, { lat: -90, lon: 0 })).toBeCloseTo(180 * DEGREE_KM, 6);
  });
});

describe("isCorrect", () => {
  const outside = parseOutsideRows(OUTSIDE_ROWS);
  const gn = geonamesRows();
  const one = <T extends { name: string; cc: string }>(list: T[], name: string, cc: string): T => list.find((r) => r.name === name && r.cc === cc)!;

  it("accepts the same city of both sources: Kunsan (SimpleMaps) is Gunsan (GeoNames), Porto is Porto", () => {
    expect(isCorrect(one(gn, "Gunsan", "KR"), one(outside, "Kunsan", "KR"))).toBe(true);
    expect(isCorrect(one(gn, "Porto", "PT"), one(outside, "Porto", "PT"))).toBe(true);
    expect(isCorrect(one(gn, "Bekasi", "ID"), one(outside, "Bekasi", "ID"))).toBe(true);
  });

  it("refuses a namesake elsewhere and a place of another country", () => {
    expect(isCorrect(one(gn, "Porto", "PT"), one(outside, "Porto", "BR"))).toBe(false);
    expect(isCorrect(one(gn, "Kunshan", "CN"), one(outside, "Kunsan", "KR"))).toBe(false);
    const gunsan = one(gn, "Gunsan", "KR");
    expect(isCorrect({ ...gunsan, cc: "KP" }, one(outside, "Kunsan", "KR"))).toBe(false);
  });

  it("draws the line at 30 km", () => {
    const truth = { lat: 0, lon: 0, cc: "ID" };
    expect(CORRECT_WITHIN_KM).toBe(30);
    expect(isCorrect({ lat: 29.9 / DEGREE_KM, lon: 0, cc: "ID" }, truth)).toBe(true);
    expect(isCorrect({ lat: 30.1 / DEGREE_KM, lon: 0, cc: "ID" }, truth)).toBe(false);
  });
});
