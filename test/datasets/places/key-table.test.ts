import { describe, expect, it } from "vitest";
import { memorySource } from "../../../datasets/common/byte-source.ts";
import { KeyTable, KeyTableWriter, KEYS_PER_BLOCK, prefixEnd } from "../../../datasets/places/key-table.ts";

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** A table of `keys` (ascending), value0 = position, value1 = key length. */
function table(keys: string[]): KeyTable {
  const parts: Uint8Array[] = [];
  const writer = new KeyTableWriter((b) => parts.push(b));
  keys.forEach((k, i) => writer.add(utf8(k), i, k.length, "test"));
  const directory = writer.finish();
  const blocks = Buffer.concat(parts);
  return new KeyTable(memorySource(blocks), directory, 0, blocks.byteLength, "test", "keys");
}

describe("KeyTable.range", () => {
  // Several blocks: 3-letter keys "aaa".."dzz" step 1 of the last letter, 4 x 26 x 3 = 312 keys.
  const keys: string[] = [];
  for (const a of "abcd") for (const b of "abcdefghijklmnopqrstuvwxyz") for (const c of "amz") keys.push(a + b + c);
  keys.sort();
  const t = table(keys);

  it("returns exactly the keys in [low, high), in order, across many blocks", () => {
    expect(keys.length).toBeGreaterThan(5 * KEYS_PER_BLOCK);
    const decode = (run: ReturnType<KeyTable["range"]>): string[] => Array.from({ length: run.count }, (_, i) => new TextDecoder().decode(run.bytes.subarray(run.keyStart[i], run.keyEnd[i])));
    const cases: [string, string][] = [["a", "e"], ["abm", "dca"], ["bq", "cf"], ["aaa", "aab"], ["dzz", "e"], ["0", "a"], ["cz", "cz"]];
    for (const [low, high] of cases) {
      const run = t.range(utf8(low), utf8(high));
      const want = keys.filter((k) => k >= low && k < high);
      expect(decode(run), `[${low}, ${high})`).toEqual(want);
      expect(run.value0).toEqual(want.map((k) => keys.indexOf(k)));
    }
    expect(decode(t.range(utf8("b"), prefixEnd(utf8("b"))))).toEqual(keys.filter((k) => k.startsWith("b")));
  });

  it("finds a key and only an exact one", () => {
    expect(t.find(utf8("cmz"))).toEqual([keys.indexOf("cmz"), 3]);
    expect(t.find(utf8("cm"))).toBeUndefined();
    expect(t.find(utf8("cmzz"))).toBeUndefined();
  });
});
