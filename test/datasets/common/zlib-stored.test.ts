import { readFileSync } from "node:fs";
import path from "node:path";
import { deflateSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { EMBEDDED_DIR } from "../../../datasets/common/paths.ts";
import { STORED_ZLIB_OVERHEAD, StoredStreamError, storedZlibPayload, storedZlibStream } from "../../../datasets/common/zlib-stored.ts";
import { thrown } from "../../helpers/thrown.ts";

/** 2,048 real bytes (a 32x32 int16 tile's worth) of the embedded ETOPO5 file: packed, so zlib stores them at any level. */
const real = readFileSync(path.join(EMBEDDED_DIR, "dem/etopo5.tif")).subarray(40_000, 42_048);
/** Real METAR text, which compresses. */
const text = gunzipSync(readFileSync(path.join(EMBEDDED_DIR, "metar", "aviationweather-na-2025-09-09_12.csv.gz"))).subarray(0, 2048);

describe("storedZlibPayload", () => {
  it("returns the payload of zlib's level-0 stream, as a view of it", () => {
    const stream = deflateSync(real, { level: 0 });
    expect(stream.byteLength).toBe(real.byteLength + STORED_ZLIB_OVERHEAD);
    const payload = storedZlibPayload(stream)!;
    expect(Buffer.from(payload).equals(real)).toBe(true);
    expect(payload.buffer).toBe(stream.buffer);
  });

  it("leaves a compressed stream, or one longer than a stored block, to be inflated", () => {
    expect(storedZlibPayload(deflateSync(text, { level: 6 }))).toBeUndefined();
    expect(Buffer.from(storedZlibPayload(deflateSync(text, { level: 0 }))!).equals(text)).toBe(true);
    // zlib splits more than 65,535 bytes into several stored blocks; the first is not final.
    expect(storedZlibPayload(deflateSync(Buffer.alloc(70_000, 7), { level: 0 }))).toBeUndefined();
    expect(storedZlibPayload(new Uint8Array(0))).toBeUndefined();
    expect(storedZlibPayload(Buffer.from("not a zlib stream"))).toBeUndefined();
  });

  it("refuses a stream whose payload, lengths or size do not hold, saying what was expected", () => {
    const flipped = Buffer.from(deflateSync(real, { level: 0 }));
    flipped[1000]! ^= 0x10;
    const err = thrown(() => storedZlibPayload(flipped));
    expect(err).toBeInstanceOf(StoredStreamError);
    expect((err as Error).message).toMatch(/^expected the Adler-32 the stream states \([0-9a-f]{8}\), got [0-9a-f]{8} over its payload$/);

    const badNlen = Buffer.from(deflateSync(real, { level: 0 }));
    badNlen[5]! ^= 0x01;
    expect(() => storedZlibPayload(badNlen)).toThrow(/expected NLEN = ~LEN \(63487\), got 63486/);

    const cut = deflateSync(real, { level: 0 }).subarray(0, 2000);
    expect(() => storedZlibPayload(cut)).toThrow(/expected a stream of 2059 bytes \(LEN 2048\), got 2000/);
  });
});

describe("storedZlibStream", () => {
  it("writes the bytes zlib's deflate writes at level 0 (one stored block: up to 65,000 bytes here)", () => {
    for (const bytes of [real, text, real.subarray(0, 0), Buffer.concat(Array.from({ length: 31 }, () => real)).subarray(0, 65_000)]) {
      expect(Buffer.from(storedZlibStream(bytes)).equals(deflateSync(bytes, { level: 0 }))).toBe(true);
    }
    // zlib splits 65,535 bytes in two blocks; one block holds them, and reads back the same.
    const largest = Buffer.concat(Array.from({ length: 32 }, () => real)).subarray(0, 65_535);
    expect(Buffer.from(storedZlibPayload(storedZlibStream(largest))!).equals(largest)).toBe(true);
    expect(() => storedZlibStream(new Uint8Array(65_536))).toThrow(/at most 65535 bytes, got 65536/);
  });
});
