/**
 * needsSharedData on paths and a command that do not exist: the block and the test are skipped
 * (they throw if they run) and each is announced by one line naming what is missing.
 */
import { describe, expect, it, vi } from "vitest";
import { needsSharedData } from "./shared-data.ts";

const lines: unknown[] = [];
const warn = vi.spyOn(console, "warn").mockImplementation((line: unknown) => void lines.push(line));
const absent = needsSharedData(["no-such-folder-for-this-test/a.grib2"], { commands: ["no-such-command-for-this-test"] });
absent.describe("a block on absent data", () => {
  it("is never run", () => {
    throw new Error("ran although its shared data is missing");
  });
});
absent.it("a test on absent data", () => {
  throw new Error("ran although its shared data is missing");
});
warn.mockRestore();

describe("needsSharedData", () => {
  it("skips what needs absent shared data and says so, one line per block or test", () => {
    expect(absent.present).toBe(false);
    const why = "missing ../shared/data/no-such-folder-for-this-test/a.grib2, the command no-such-command-for-this-test (the shared data is on our machines only)";
    expect(lines).toEqual([`skipped "a block on absent data": ${why}`, `skipped "a test on absent data": ${why}`]);
  });
});
