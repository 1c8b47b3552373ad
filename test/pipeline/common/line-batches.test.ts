/**
 * readLineBatches gives exactly node:readline's lines (the reference) for the real cities500
 * excerpt, also with CRLF and lone-CR line ends, without a final line end, and whatever the
 * chunk boundaries (every chunk size from 1 byte, so an end and a multi-byte UTF-8 character are
 * split across chunks).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { readLineBatches } from "../../../pipeline/common/line-batches.ts";

const text = readFileSync(path.join(PROJECT_ROOT, "test", "fixtures", "places", "cities500-excerpt.txt"), "utf8")
  .split("\n")
  .slice(0, 4)
  .join("\n");

function chunks(bytes: Buffer, size: number): Readable {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts);
}

async function reference(bytes: Buffer): Promise<string[]> {
  const out: string[] = [];
  for await (const line of createInterface({ input: chunks(bytes, 1 << 16), crlfDelay: Infinity })) out.push(line);
  return out;
}

async function ours(bytes: Buffer, size: number): Promise<{ line: string; n: number }[]> {
  const out: { line: string; n: number }[] = [];
  for await (const b of readLineBatches(chunks(bytes, size))) b.lines.forEach((line, i) => out.push({ line, n: b.firstLineNumber + i }));
  return out;
}

describe("readLineBatches", () => {
  const variants: Record<string, string> = {
    "LF, final LF": `${text}\n`,
    "LF, no final end": text,
    "CRLF with an empty line": `${text.replaceAll("\n", "\r\n")}\r\n\r\nlast`,
    "lone CR": `${text.replaceAll("\n", "\r")}\r`,
    empty: "",
  };
  for (const [name, content] of Object.entries(variants)) {
    it(`${name}: readline's lines and numbers at every chunk size`, async () => {
      const bytes = Buffer.from(content, "utf8");
      const expected = await reference(bytes);
      if (content !== "") expect(expected.length).toBeGreaterThanOrEqual(4);
      for (const size of [1, 2, 3, 5, 7, 64, 1000, 1 << 20]) {
        const got = await ours(bytes, size);
        expect(got.map((g) => g.line)).toEqual(expected);
        expect(got.map((g) => g.n)).toEqual(expected.map((_, i) => i + 1));
      }
    });
  }
});
