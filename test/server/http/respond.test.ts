import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compress, negotiateEncoding, negotiateSplicedEncoding, staticBody } from "../../../server/http/respond.ts";

describe("negotiateEncoding (RFC 9110 §12.5.3) and negotiateSplicedEncoding (bodies spliced from parts)", () => {
  // Header, then the coding for a body compressed whole, then for a body spliced from parts (gzip
  // whenever it is accepted as willingly as br).
  it.each([
    [undefined, "identity", "identity"],
    ["", "identity", "identity"],
    ["gzip", "gzip", "gzip"],
    ["br", "br", "br"],
    ["gzip, deflate, br", "br", "gzip"],
    ["br, gzip", "br", "gzip"],
    ["gzip;q=1, br;q=0.5", "gzip", "gzip"],
    ["br;q=1, gzip;q=0.5", "br", "br"],
    ["gzip;q=0.5, br;q=0.5", "br", "gzip"],
    ["br;q=0, gzip", "gzip", "gzip"],
    ["br, gzip;q=0", "br", "br"],
    ["br;q=0, gzip;q=0", "identity", "identity"],
    ["*", "br", "gzip"],
    ["*;q=0", "identity", "identity"],
    ["identity", "identity", "identity"],
    ["deflate", "identity", "identity"],
    ["x-gzip", "gzip", "gzip"],
    ["GZIP", "gzip", "gzip"],
    ["br;q=0.8, *;q=0.9", "gzip", "gzip"],
  ])("%j → %s, spliced %s", (header, whole, spliced) => {
    // Twice each: the second from the cache of parsed headers.
    for (let pass = 0; pass < 2; pass++) {
      expect(negotiateEncoding(header)).toBe(whole);
      expect(negotiateSplicedEncoding(header)).toBe(spliced);
    }
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
