/**
 * The numbers' text of the answers written as text (datasets/common/json-number.ts): whole
 * numbers and tenths written from whole numbers are JSON.stringify's, on edge values and on a
 * seeded sweep. The answers' whole text against JSON.stringify of their objects is
 * test/server/stations/observations-content.test.ts (every station of the embedded default) and
 * the weather answers' shape tests.
 */
import { describe, expect, it } from "vitest";
import { jsonNumber } from "../../../datasets/common/json-number.ts";
import { mulberry32 } from "../../../datasets/common/prng.ts";

describe("jsonNumber", () => {
  const edges = [0, -0, 1, -1, 0.5, -0.5, -0.05, 12.3, -12.3, 12.5, 87.5, 402.336, 0.1 + 0.2, 99_999_999.9, -99_999_999.9, 100_000_000, 1e9, 1_764_374_400, 1_764_300_000, 1_764_301_234, 1_764_300_005, 99_999_999_999_999, 1e14, 1e21, 5e-7, 2 ** 53, Infinity, NaN];
  it.each(edges.map((x) => [x]))("writes %s as JSON.stringify does", (x) => {
    expect(jsonNumber(x)).toBe(JSON.stringify(x));
  });

  it("writes whole numbers, tenths, hundredths and UNIX times as JSON.stringify does", () => {
    const random = mulberry32(20261129);
    const differing: string[] = [];
    for (let k = 0; k < 200_000; k++) {
      const magnitude = 10 ** Math.floor(random() * 11);
      const x = (random() - 0.5) * magnitude;
      for (const v of [Math.round(x), Math.round(x * 10) / 10, Math.round(x * 100) / 100, x]) {
        if (jsonNumber(v) !== JSON.stringify(v)) differing.push(`${JSON.stringify(v)} written ${jsonNumber(v)}`);
      }
    }
    expect(differing).toEqual([]);
  });
});
