import { describe, expect, it } from "vitest";
import { applyPlan, planExtreme, planLinear, type Window } from "../../../pipeline/forecast/windows.ts";

const w = (start: number, end: number): Window => ({ start, end });

function run(windows: Window[], values: number[], p: number, s: number, mode: "sum" | "mean" | "max" | "min"): number | undefined {
  const plan = mode === "sum" || mode === "mean" ? planLinear(windows, p, s, mode === "mean") : planExtreme(windows, p, s);
  if (!plan) return undefined;
  const out = new Float32Array(1);
  applyPlan(plan, values.map((v) => Float32Array.of(v)), mode, out);
  return out[0];
}

describe("window arithmetic (GFS buckets and running totals)", () => {
  // 3-hourly GFS: 0-3, 0-6 running; then the 6-hour bucket restarts: 6-9, 6-12.
  const buckets = [w(0, 3), w(0, 6), w(6, 9), w(6, 12)];
  const amounts = [2, 5, 1.5, 4]; // mm: 2 in 0-3, 3 in 3-6, 1.5 in 6-9, 2.5 in 9-12
  it("takes a published window as is and differences within a bucket", () => {
    expect(run(buckets, amounts, 0, 3, "sum")).toBe(2);
    expect(run(buckets, amounts, 3, 6, "sum")).toBe(3);
    expect(run(buckets, amounts, 6, 9, "sum")).toBe(1.5);
    expect(run(buckets, amounts, 9, 12, "sum")).toBe(2.5);
    expect(planLinear(buckets, 9, 12, false)!.terms).toEqual([{ window: 2, factor: -1 }, { window: 3, factor: 1 }]);
  });
  it("chains windows over a longer step and uses running totals when there are no buckets", () => {
    expect(run(buckets, amounts, 0, 12, "sum")).toBe(9);
    expect(run([w(0, 3), w(0, 6), w(0, 9)], [2, 5, 6.5], 6, 9, "sum")).toBe(1.5);
  });
  it("leaves a step undetermined when no walk exists, and the empty window of step 0", () => {
    expect(planLinear([w(0, 6), w(6, 12)], 9, 12, false)).toBeUndefined();
    expect(planLinear(buckets, 0, 0, false)).toBeUndefined();
  });
  it("drops the small negative amount two packed totals can leave", () => {
    expect(run([w(0, 3), w(0, 6)], [1.0625, 1], 3, 6, "sum")).toBe(0);
  });
  it("turns averages into integrals and back (GFS 0-1, 0-2 ... 0-6 hour cloud averages)", () => {
    // 0-1 average 10 %, 0-2 average 20 %: hour 1-2 averaged (40 - 10) / 1 = 30 %.
    expect(run([w(0, 1), w(0, 2)], [10, 20], 1, 2, "mean")).toBe(30);
    // 0-3 average 40 %, 0-6 average 50 %: hours 3-6 averaged (300 - 120) / 3 = 60 %.
    expect(run([w(0, 3), w(0, 6)], [40, 50], 3, 6, "mean")).toBe(60);
  });
  it("takes extremes from the exact window, from windows partitioning the step, else from the shortest window containing it", () => {
    expect(run([w(66, 72)], [301.5], 66, 72, "max")).toBe(301.5);
    expect(run([w(0, 1), w(1, 2), w(2, 3)], [280, 283, 281], 0, 3, "max")).toBe(283);
    expect(run([w(0, 1), w(1, 2), w(2, 3)], [280, 283, 281], 0, 3, "min")).toBe(280);
    const widened = planExtreme([w(0, 5), w(0, 6)], 5, 6)!;
    expect(widened).toEqual({ kind: "extreme", windows: [1], exact: false });
    expect(planExtreme([w(0, 3)], 3, 6)).toBeUndefined();
  });
});
