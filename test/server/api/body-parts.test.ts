import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { constants, gunzipSync, inflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { Fragment, gzipParts, joinParts, partsLength, partsLongerThan, type BodyPart } from "../../../server/api/body-parts.ts";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures");
// Real bytes: ecCodes reference values (22 KB of JSON) and a real METAR report.
const eccodes = readFileSync(path.join(fixtures, "forecast/onedeg-precip-eccodes.json"));
const metar = "KJFK 231751Z 31012KT 10SM FEW250 08/M09 A3021 RMK AO2 SLP230 T00831089 10094 20033 58012";

describe("body parts", () => {
  it("a fragment and its deflated copy own stores of their size (no pool slab kept alive)", () => {
    const fragment = Fragment.of(metar);
    expect(fragment.bytes.buffer.byteLength).toBe(fragment.bytes.byteLength);
    expect(fragment.deflated.buffer.byteLength).toBe(fragment.deflated.byteLength);
    expect(inflateRawSync(fragment.deflated, { finishFlush: constants.Z_SYNC_FLUSH }).toString("latin1")).toBe(metar);
  });

  it("joins fragments and new text into the identity body", () => {
    const parts = ['{"a":', Fragment.of("[1,2,3]"), ',"b":"é"}'];
    expect(joinParts(parts).toString("utf8")).toBe('{"a":[1,2,3],"b":"é"}');
    expect(partsLength(parts)).toBe(Buffer.byteLength('{"a":[1,2,3],"b":"é"}'));
  });

  it("bodies made one after another stay intact, small and large, multi-byte text included", () => {
    // Real text: the METAR report and the ecCodes reference values; multi-byte text reserves 3 bytes a unit.
    const kinds: BodyPart[][] = [
      [Fragment.of('{"report":'), JSON.stringify(metar), "}"],
      ["Zürich, Москва, 東京, 😀", Fragment.of(metar), Buffer.from(metar)],
      [new Fragment(eccodes), ",", eccodes.toString("utf8").slice(0, 5000)],
      [new Fragment(Buffer.concat([eccodes, eccodes, eccodes]))],
      [""],
    ];
    const made: { body: Buffer; gzip: Buffer; expected: Buffer }[] = [];
    // Identity and gzip bodies interleaved.
    for (let i = 0; i < 120; i++) {
      const parts = kinds[i % kinds.length]!;
      const expected = Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : p instanceof Fragment ? p.bytes : p)));
      made.push({ body: joinParts(parts), gzip: gzipParts(parts), expected });
    }
    for (const { body, gzip, expected } of made) {
      expect(body.equals(expected)).toBe(true);
      expect(gunzipSync(gzip).equals(expected)).toBe(true);
    }
  });

  it("splices a gzip body that zlib decodes to the identity body, CRC and length checked", () => {
    const head = Fragment.of(`{"status":"OK","code":200,"content":{"report":`);
    const tail = new Fragment(eccodes);
    for (const parts of [
      [head, JSON.stringify(metar), ',"reference":', tail, "}}"],
      [tail],
      [metar],
      [head, "", head, metar, Buffer.from(metar), "Zürich, Москва, 東京", tail],
    ]) {
      const gz = gzipParts(parts);
      expect(gunzipSync(gz).equals(joinParts(parts))).toBe(true);
      // The fragments' copies made the body small: well under the 22 KB of the fixture.
      if (parts.includes(tail)) expect(gz.byteLength).toBeLessThan(eccodes.byteLength / 3);
    }
  });

  it("an empty body is a valid empty gzip member", () => {
    expect(gunzipSync(gzipParts([])).byteLength).toBe(0);
    expect(gunzipSync(gzipParts([""])).byteLength).toBe(0);
  });

  it("new bytes over 65,535 go into several stored blocks", () => {
    const big = Buffer.concat([eccodes, eccodes, eccodes, eccodes]); // 88 KB
    const parts = [Fragment.of("["), big, Fragment.of("]")];
    expect(gunzipSync(gzipParts(parts)).equals(joinParts(parts))).toBe(true);
    // The same as text, with characters of two and three bytes in UTF-8.
    const text = `${big.toString("latin1")}é東`;
    const textParts = [Fragment.of("["), text, Fragment.of("]")];
    expect(gunzipSync(gzipParts(textParts)).toString("utf8")).toBe(`[${text}]`);
    expect(joinParts(textParts).toString("utf8")).toBe(`[${text}]`);
  });

  it("text on either side of the length that surely fits one stored block (65,535 / 3 units)", () => {
    const ascii = eccodes.toString("latin1").replace(/[^\x20-\x7e]/g, " ");
    for (const units of [21_844, 21_845, 21_846]) {
      for (const text of [ascii.slice(0, units), `${ascii.slice(0, units - 2)}é東`]) {
        const parts = [Fragment.of("{"), text, Fragment.of("}")];
        expect(gunzipSync(gzipParts(parts)).toString("utf8")).toBe(`{${text}}`);
      }
    }
  });

  it("partsLongerThan agrees with the measured length on both sides of the limit", () => {
    const cases: BodyPart[][] = [[metar], ["é".repeat(800)], ["東".repeat(470)], [Fragment.of(metar), "é".repeat(700), Buffer.from(metar)], [new Fragment(eccodes)], []];
    for (const parts of cases) {
      const n = partsLength(parts);
      for (const limit of [0, n - 1, n, n + 1, 1400]) expect(partsLongerThan(parts, limit), `${n} vs ${limit}`).toBe(n > limit);
    }
  });

  it("a corrupted trailer is refused by the decoder (the CRC is the whole body's)", () => {
    const gz = gzipParts([new Fragment(eccodes), metar]);
    gz[gz.byteLength - 6]! ^= 0xff;
    expect(() => gunzipSync(gz)).toThrow();
  });

  it("a fragment is deflated once, byte-aligned and not final", () => {
    const f = new Fragment(eccodes);
    const first = f.deflated;
    expect(f.deflated).toBe(first);
    // A sync flush ends with an empty stored block: 00 00 ff ff.
    expect([...first.subarray(-4)]).toEqual([0, 0, 0xff, 0xff]);
    expect(inflateRawSync(first, { finishFlush: 2 /* Z_SYNC_FLUSH */ }).equals(eccodes)).toBe(true);
  });

  it("a joined fragment holds its parts' bytes, and its deflated copy is theirs spliced: zlib decodes it, nothing deflated again", () => {
    const tail = new Fragment(eccodes);
    const tailCopy = tail.deflated;
    const parts: BodyPart[] = [Fragment.of('{"report":'), JSON.stringify(metar), ',"multi":"Zürich, 東京","reference":', tail, Buffer.from("}"), ""];
    const joined = Fragment.joined(parts);
    expect(joined.bytes.equals(joinParts(parts))).toBe(true);
    // Stores of about their own size (owned-bytes.ts allows an eighth more), never a pool slab.
    expect(joined.bytes.buffer.byteLength).toBeLessThanOrEqual(joined.bytes.byteLength * 1.125);
    expect(inflateRawSync(joined.deflated, { finishFlush: constants.Z_SYNC_FLUSH }).equals(joined.bytes)).toBe(true);
    // The part's copy is inside the joined one, byte for byte: spliced, not compressed anew.
    expect(joined.deflated.includes(tailCopy)).toBe(true);
    expect(joined.deflated.buffer.byteLength).toBeLessThanOrEqual(joined.deflated.byteLength * 1.125);
    // Spliced between new text, the gzip body decodes to the same bytes as the parts joined (CRC and length checked by zlib).
    const body = ["[", joined, ",", Fragment.joined([]), joined, "]"];
    expect(gunzipSync(gzipParts(body)).equals(joinParts(body))).toBe(true);
  });
});
