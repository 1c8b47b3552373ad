import { describe, expect, it } from "vitest";
import { lineBatch } from "../../../server/http/line-batch.ts";

describe("lineBatch", () => {
  it("writes the lines of one event-loop turn in one write, in order", async () => {
    const writes: string[] = [];
    const batch = lineBatch((c) => writes.push(c));
    batch.push('{"a":1}');
    batch.push('{"a":2}');
    expect(writes).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual(['{"a":1}\n{"a":2}\n']);
    batch.push('{"a":3}');
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual(['{"a":1}\n{"a":2}\n', '{"a":3}\n']);
  });
  it("writes at once when the waiting text reaches the limit", () => {
    const writes: string[] = [];
    const batch = lineBatch((c) => writes.push(c), 10);
    batch.push("12345");
    expect(writes).toEqual([]);
    batch.push("67890");
    expect(writes).toEqual(["12345\n67890\n"]);
  });
  it("flush() writes what is waiting, and nothing when nothing is", () => {
    const writes: string[] = [];
    const batch = lineBatch((c) => writes.push(c));
    batch.flush();
    batch.push("x");
    batch.flush();
    batch.flush();
    expect(writes).toEqual(["x\n"]);
  });
});
