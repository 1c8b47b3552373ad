import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compress, negotiateEncoding } from "../../../server/http/respond.ts";

describe("negotiateEncoding (RFC 9110 §12.5.3)", () => {
  it.each([
    [undefined, "identity"],
    ["", "identity"],
    ["gzip", "gzip"],
    ["br", "br"],
    ["gzip, deflate, br", "br"],
    ["gzip;q=1, br;q=0.5", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["br;q=0, gzip;q=0", "identity"],
    ["*", "br"],
    ["*;q=0", "identity"],
    ["identity", "identity"],
    ["deflate", "identity"],
    ["x-gzip", "gzip"],
    ["GZIP", "gzip"],
    ["br;q=0.8, *;q=0.9", "gzip"],
  ])("%j → %s", (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe("compress", () => {
  const body = Buffer.from(JSON.stringify({ text: "x".repeat(5000) }));
  it("gzip round-trips", () => {
    expect(gunzipSync(compress(body, "gzip")).equals(body)).toBe(true);
  });
  it("brotli round-trips", () => {
    expect(brotliDecompressSync(compress(body, "br")).equals(body)).toBe(true);
  });
});
