/**
 * processAlive, as the lock and the forecast sweep ask it: this process and init are there, a
 * child that has exited is not, and ids that name process groups (0, negative) are never one.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { processAlive } from "../../../pipeline/common/process-alive.ts";

describe("processAlive", () => {
  it("is true for this process and for pid 1, whoever owns it", () => {
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(1)).toBe(true);
  });

  it("is false for a process that has exited and for ids that are not one process", () => {
    const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
    expect(processAlive(Number(child.stdout.toString()))).toBe(false);
    for (const pid of [0, -1, Number.NaN, 1.5]) expect(processAlive(pid)).toBe(false);
  });
});
