import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compress, negotiateEncoding, negotiateSplicedEncoding, staticBody } from "../../../server/http/respond.ts";

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
    // A second time, from the cache of parsed headers.
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe("negotiateSplicedEncoding (bodies spliced from precompressed parts)", () => {
  it.each([
    [undefined, "identity"],
    ["identity", "identity"],
    ["gzip, deflate, br", "gzip"],
    ["br, gzip", "gzip"],
    ["br", "br"],
    ["br;q=1, gzip;q=0.5", "br"],
    ["gzip;q=0.5, br;q=0.5", "gzip"],
    ["br, gzip;q=0", "br"],
    ["*", "gzip"],
  ])("%s → %s", (header, expected) => {
    expect(negotiateSplicedEncoding(header)).toBe(expected);
    expect(negotiateSplicedEncoding(header)).toBe(expected);
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

describe("staticBody", () => {
  const body = staticBody(Buffer.from(JSON.stringify({ text: "static ".repeat(3000) })));
  it("is compressed once: compress() returns the same copy every time", () => {
    expect(compress(body, "br")).toBe(compress(body, "br"));
    expect(compress(body, "gzip")).toBe(compress(body, "gzip"));
    expect(compress(body, "identity")).toBe(body);
  });
  it("its copies decode to the body", () => {
    expect(brotliDecompressSync(compress(body, "br")).equals(body)).toBe(true);
    expect(gunzipSync(compress(body, "gzip")).equals(body)).toBe(true);
  });
  it("an equal body that was not marked is compressed afresh", () => {
    const other = Buffer.from(body);
    expect(compress(other, "br")).not.toBe(compress(body, "br"));
    expect(brotliDecompressSync(compress(other, "br")).equals(body)).toBe(true);
  });
});
