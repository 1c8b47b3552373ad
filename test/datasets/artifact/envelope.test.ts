import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { encodeEnvelope, openEnvelope, openEnvelopeFile, readEnvelopeHeader } from "../../../datasets/artifact/envelope.ts";
import { writeArtifact } from "../../../datasets/artifact/write-artifact.ts";
import { DataFormatError, MissingInputError } from "../../../datasets/common/errors.ts";

const input = { magic: "GEODTEST", formatVersion: 3, kind: "test", sources: [{ name: "a.txt", location: "x/a.txt", bytes: 5 }], counts: { rows: 2 }, builtAt: new Date("2026-01-02T03:04:05Z") };
const payload = [new Uint8Array([1, 2, 3]), new Uint8Array([4, 5, 6, 7, 8])];

function file(): Uint8Array {
  return Buffer.concat(encodeEnvelope(input, payload));
}

describe("artifact envelope (datasets/artifact/FORMAT.md)", () => {
  it("lays out magic, version, metadata length at fixed offsets, payload 8-aligned", () => {
    const bytes = Buffer.from(file());
    expect(bytes.toString("latin1", 0, 8)).toBe("GEODTEST");
    expect(bytes.readUInt32LE(8)).toBe(3);
    const metaLength = bytes.readUInt32LE(12);
    const meta = JSON.parse(bytes.toString("utf8", 16, 16 + metaLength));
    expect(meta.counts).toEqual({ rows: 2 });
    const payloadOffset = Math.ceil((16 + metaLength) / 8) * 8;
    expect([...bytes.subarray(payloadOffset)]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("round-trips", () => {
    const opened = openEnvelope(file(), { magic: "GEODTEST", formatVersion: 3, file: "t" });
    expect([...opened.payload]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(opened.payloadOffset % 8).toBe(0);
    expect(opened.metadata.builtAt).toBe("2026-01-02T03:04:05.000Z");
    expect(opened.metadata.sources[0]?.name).toBe("a.txt");
  });

  it("refuses a wrong magic, saying expected and got", () => {
    expect(() => openEnvelope(file(), { magic: "GEODELSE", formatVersion: 3, file: "t.idx" })).toThrow(/t\.idx, offset 0: expected magic GEODELSE, got "GEODTEST"/);
  });

  it("refuses another format version", () => {
    expect(() => openEnvelope(file(), { magic: "GEODTEST", formatVersion: 4, file: "t" })).toThrow(/expected format version 4, got version 3/);
  });

  it("refuses a truncated file", () => {
    const bytes = file();
    expect(() => openEnvelope(bytes.subarray(0, bytes.byteLength - 1), { magic: "GEODTEST", formatVersion: 3, file: "t" })).toThrow(DataFormatError);
    expect(() => openEnvelope(bytes.subarray(0, 10), { magic: "GEODTEST", formatVersion: 3, file: "t" })).toThrow(/at least 16 header bytes/);
  });

  it("refuses a corrupted payload byte", () => {
    const bytes = Buffer.from(file());
    bytes[bytes.byteLength - 1] ^= 0xff;
    expect(() => openEnvelope(bytes, { magic: "GEODTEST", formatVersion: 3, file: "t" })).toThrow(/CRC-32/);
  });

  it("opens a file where it lies: header checked, payload read through the source; truncated and missing files refused", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-env-"));
    const target = path.join(dir, "a.idx");
    await writeArtifact(target, input, payload);
    const expected = { magic: "GEODTEST", formatVersion: 3, file: target };
    const { metadata, source } = openEnvelopeFile(target, expected);
    try {
      expect(metadata.counts).toEqual({ rows: 2 });
      expect([...source.read(2, 4)]).toEqual([3, 4, 5, 6]);
    } finally {
      source.close?.();
    }
    const whole = await fs.readFile(target);
    await fs.writeFile(target, whole.subarray(0, whole.byteLength - 3));
    expect(() => openEnvelopeFile(target, expected)).toThrow(/expected a payload of 8 bytes, got 5 bytes/);
    await fs.writeFile(target, whole.subarray(0, 20));
    expect(() => openEnvelopeFile(target, expected)).toThrow(/expected metadata of \d+ bytes within the file, got a file of 20 bytes/);
    expect(() => openEnvelopeFile(path.join(dir, "absent.idx"), expected)).toThrow(MissingInputError);
    await fs.rm(dir, { recursive: true });
  });

  it("refuses an empty file", () => {
    expect(() => readEnvelopeHeader(new Uint8Array(0), { magic: "GEODTEST", formatVersion: 3, file: "t" })).toThrow(/got 0 bytes/);
  });

  it("writes atomically: no temporary file left, content complete", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-env-"));
    const target = path.join(dir, "sub", "a.idx");
    await writeArtifact(target, input, payload);
    expect(await fs.readdir(path.dirname(target))).toEqual(["a.idx"]);
    const opened = openEnvelope(await fs.readFile(target), { magic: "GEODTEST", formatVersion: 3, file: target });
    expect(opened.payload.byteLength).toBe(8);
    await fs.rm(dir, { recursive: true });
  });
});
