/**
 * Probabilities against hand computation from their definitions: a share of counted values, and
 * the probability of at least one of independent events, P = 1 − Π(1 − pᵢ).
 */
import { describe, expect, it } from "vitest";
import { dailyProbability, neighbourhoodProbability } from "../../../../server/weather/derived/probability.ts";

describe("neighbourhoodProbability", () => {
  it("is the rounded share of the 3×3 nodes at or above 0.1 mm", () => {
    // 4 wet nodes of 9: 44.4 % → 44
    expect(neighbourhoodProbability([0, 0.2, 0, 1.5, 0, 0, 0.1, 0.05, 3])).toBe(44);
    expect(neighbourhoodProbability(new Float32Array(9))).toBe(0);
    expect(neighbourhoodProbability(new Float32Array(9).fill(0.5))).toBe(100);
  });

  it("counts exactly the threshold as wet, also as a float32", () => {
    expect(neighbourhoodProbability([0.1])).toBe(100);
    expect(neighbourhoodProbability(Float32Array.of(0.1))).toBe(100); // float32(0.1) = 0.10000000149…
    expect(neighbourhoodProbability([0.0999])).toBe(0);
  });

  it("rounds halves up and takes another threshold", () => {
    expect(neighbourhoodProbability([1, 0, 0, 0, 0, 0, 0, 0])).toBe(13); // 12.5 → 13
    expect(neighbourhoodProbability([0.5, 1, 2, 0.9], 1)).toBe(50);
  });

  it("leaves NaN out and answers NaN when nothing is left", () => {
    expect(neighbourhoodProbability([Number.NaN, 1, 0, Number.NaN])).toBe(50);
    expect(neighbourhoodProbability([Number.NaN, Number.NaN])).toBeNaN();
    expect(neighbourhoodProbability([])).toBeNaN();
  });
});

describe("dailyProbability", () => {
  it("combines independent slots: 1 − Π(1 − p)", () => {
    expect(dailyProbability([50, 50])).toBeCloseTo(75, 10); // 1 − 0.5 × 0.5
    expect(dailyProbability([10, 20, 30])).toBeCloseTo(49.6, 10); // 1 − 0.9 × 0.8 × 0.7 = 0.496
    expect(dailyProbability([0, 0, 0])).toBe(0);
    expect(dailyProbability([0, 100, 0])).toBe(100);
    expect(dailyProbability([40])).toBeCloseTo(40, 10);
  });

  it("is at least the largest slot probability", () => {
    const slots = [5, 60, 12, 0, 33];
    expect(dailyProbability(slots)).toBeGreaterThanOrEqual(60);
  });

  it("ignores NaN, clamps to 0..100 and answers NaN for an empty day", () => {
    expect(dailyProbability([Number.NaN, 50, Number.NaN, 50])).toBeCloseTo(75, 10);
    expect(dailyProbability([150])).toBe(100);
    expect(dailyProbability([-20, 50])).toBeCloseTo(50, 10);
    expect(dailyProbability([])).toBeNaN();
    expect(dailyProbability([Number.NaN])).toBeNaN();
  });
});
