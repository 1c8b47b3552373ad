/**
 * The section layout (datasets/admin/sections.ts): a u8 section given as pieces is laid out as the
 * same section given joined: the same table of contents and the same payload bytes, each section
 * starting at a multiple of 8. The pieces are real report lines (test/fixtures/stations).
 */
import { describe, expect, it } from "vitest";
import { encodeSections } from "../../../datasets/admin/sections.ts";
import { fixtureLines } from "../../pipeline/stations/fixtures.ts";

describe("encodeSections", () => {
  it("lays out a u8 section given as pieces as the same section joined", () => {
    const pieces = fixtureLines("nsd_cccc-excerpt.txt").slice(0, 5).map((l) => Buffer.from(l + "\n", "latin1"));
    pieces.splice(2, 0, Buffer.alloc(0));
    const head = new Uint32Array([7, 11, 13]);
    const joined = encodeSections([["head", head], ["text", Buffer.concat(pieces)], ["tail", new Float64Array([1.5])]]);
    const split = encodeSections([["head", head], ["text", pieces], ["tail", new Float64Array([1.5])]]);
    expect(split.toc).toEqual(joined.toc);
    expect(Buffer.concat(split.chunks).equals(Buffer.concat(joined.chunks))).toBe(true);
    expect(split.toc.map((e) => e.offset % 8)).toEqual([0, 0, 0]);
    expect(split.toc[1]).toMatchObject({ name: "text", type: "u8", length: pieces.reduce((n, p) => n + p.byteLength, 0) });
    expect(split.chunks.some((c) => c.byteLength === 0)).toBe(false);
  });
});
