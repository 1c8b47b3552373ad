/**
 * The shared waits of the tests: `until` gives the first value its check gives and fails loudly,
 * naming what it waited for, at its deadline; `thrown` gives the error and fails when there is none.
 */
import { describe, expect, it } from "vitest";
import { thrown } from "./thrown.ts";
import { until } from "./until.ts";

describe("until", () => {
  it("gives the first value that is neither undefined nor false, polling until then", async () => {
    let calls = 0;
    expect(await until("the third call", () => (++calls === 3 ? { calls } : calls === 1 ? false : undefined), 5_000, 1)).toEqual({ calls: 3 });
    expect(await until("zero counts", async () => 0)).toBe(0);
  });

  it("fails at the deadline naming what it waited for, with what was seen when told", async () => {
    await expect(until("the pointer poll", () => false, 30, 5)).rejects.toThrow("timed out after 30 ms waiting for the pointer poll");
    let seen = 0;
    await expect(until(() => `a count of 10 (last seen ${seen})`, () => (++seen >= 1e9 ? seen : undefined), 30, 5)).rejects.toThrow(/waiting for a count of 10 \(last seen \d+\)$/);
  });
});

describe("thrown", () => {
  it("gives what the function throws and fails when it throws nothing", () => {
    const err = new RangeError("expected 1, got 2");
    expect(thrown(() => {
      throw err;
    })).toBe(err);
    expect(() => thrown(() => 1)).toThrow("expected an error");
  });
});
