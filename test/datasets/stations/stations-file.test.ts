/**
 * Opening stations.idx where it lies: a truncated, foreign, older or damaged file is refused with
 * the reader's error (file, offset or field, expected against got), never a crash; a series block
 * that rots after opening fails its lookup with a DataFormatError naming the station (what the
 * server reports as a serving fault). The file is the `stations` step's, built from real fixture
 * reports (OGIMET 87582 of 2026-03); the damage is written at offsets read from its own table of
 * contents.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATASETS } from "../../../datasets/catalog.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { DataFormatError, MissingInputError } from "../../../datasets/common/errors.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { openStationsFile } from "../../../datasets/stations/stations-file.ts";
import { stationsStep } from "../../../pipeline/stations/step.ts";
import { thrown } from "../../helpers/thrown.ts";
import { layout } from "./idx-layout.ts";

const FIXTURES = path.join(import.meta.dirname, "..", "..", "fixtures", "stations");
let dir: string;
let file: string;
let bytes: Buffer;

async function variant(name: string, edit: (b: Buffer) => Buffer | void): Promise<string> {
  const copy = Buffer.from(bytes);
  const target = path.join(dir, name);
  await fs.writeFile(target, edit(copy) ?? copy);
  return target;
}

function refusal(target: string): DataFormatError {
  const err = thrown(() => openStationsFile(target));
  expect(err).toBeInstanceOf(DataFormatError);
  return err as DataFormatError;
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "stations-idx-"));
  const args = ["--noaa", path.join(FIXTURES, "nsd_cccc-excerpt.txt"), "--wmo", path.join(FIXTURES, "wmo_stations-excerpt.csv"), path.join(FIXTURES, "ogimet-argentina-2026-03-excerpt.txt")];
  await stationsStep.run(args, { config: readConfig({ GEODATA_DATA_DIR: dir }), logger: silentLogger });
  file = path.join(dir, DATASETS.stations.servedFile!);
  bytes = await fs.readFile(file);
}, 120_000);

afterAll(async () => {
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe("opening stations.idx", () => {
  it("opens the step's file and reads 87582's series from it", () => {
    const { index, metadata } = openStationsFile(file);
    try {
      expect(metadata).toMatchObject({ kind: "stations", formatVersion: DATASETS.stations.formatVersion });
      expect(index.directories.SYNOP.get("87582")!.timestamps.length).toBe(layout(bytes).entryOf("SYNOP", "87582").count);
    } finally {
      index.close();
    }
  });

  it("refuses a truncated file: expected payload bytes against the bytes there", async () => {
    const cut = await variant("truncated.idx", (b) => b.subarray(0, b.length - 100));
    const payload = layout(bytes).payload;
    expect(refusal(cut).message).toBe(`${cut}, offset ${payload}: expected a payload of ${bytes.length - payload} bytes, got ${bytes.length - payload - 100} bytes (truncated or padded file)`);
    const stub = await variant("stub.idx", (b) => b.subarray(0, 10));
    expect(refusal(stub).message).toBe(`${stub}, offset 0: expected at least 16 header bytes, got 10 bytes`);
  });

  it("refuses a foreign file (the DuckDB database, an admin index's magic) and another format version", async () => {
    const database = path.join(dir, DATASETS.stations.file);
    expect(refusal(database).message).toMatch(new RegExp(`^${database}, offset 0: expected magic GEODSTNS, got ".*"$`));
    const admin = await variant("admin-magic.idx", (b) => void b.write("GEODADMN", 0, "latin1"));
    expect(refusal(admin).message).toBe(`${admin}, offset 0: expected magic GEODSTNS, got "GEODADMN"`);
    const older = await variant("v1.idx", (b) => void b.writeUInt32LE(1, 8));
    expect(refusal(older).message).toBe(`${older}, offset 8: expected format version ${DATASETS.stations.formatVersion}, got version 1`);
  });

  it("refuses a directory entry whose block lies outside the series", async () => {
    const bad = await variant("entry.idx", (b) => void b.writeUInt32LE(1_000_000, layout(b).entryOf("SYNOP", "87582").at + 4));
    const err = refusal(bad);
    expect(err.where).toMatchObject({ file: bad, field: "SYNOP.entries" });
    expect(err.message).toContain(`records for 87582`);
  });

  it("reports a missing file as missing", () => {
    expect(thrown(() => openStationsFile(path.join(dir, "none.idx")))).toBeInstanceOf(MissingInputError);
  });
});

describe("a series block damaged after opening", () => {
  it("fails the lookup with a DataFormatError naming the station: wid indexes past the string table, timestamps out of order", async () => {
    const target = await variant("rot.idx", () => undefined);
    const { index } = openStationsFile(target);
    try {
      const { at: block, count } = layout(bytes).blockOf("SYNOP", "87582");
      const handle = await fs.open(target, "r+");
      // The wid column (u16 at 48 n) set to 0xfefe: no string table is that long.
      await handle.write(Buffer.alloc(2 * count, 0xfe), 0, 2 * count, block + 48 * count);
      let err = thrown(() => index.directories.SYNOP.get("87582")) as DataFormatError;
      expect(err).toBeInstanceOf(DataFormatError);
      expect(err.where).toEqual({ file: target, field: "series (SYNOP 87582)" });
      expect(err.message).toMatch(/expected wid indexes below \d+, got 65278 at record 0$/);
      // The wid column mended (no wid), then the first timestamp after the second.
      await handle.write(Buffer.alloc(2 * count, 0xff), 0, 2 * count, block + 48 * count);
      expect(index.directories.SYNOP.get("87582")!.wid.every((w) => w === null)).toBe(true);
      const late = Buffer.alloc(8);
      late.writeDoubleLE(Date.UTC(2027, 0, 1) / 1000);
      await handle.write(late, 0, 8, block);
      await handle.close();
      err = thrown(() => index.directories.SYNOP.get("87582")) as DataFormatError;
      expect(err.message).toMatch(/expected ascending timestamps, got 1798761600 then \d+ at record 1$/);
    } finally {
      index.close();
    }
  });
});

describe("an answer damaged after opening", () => {
  it("fails its first read with a DataFormatError naming the station (CRC-32 expected against got); a checked answer is not checked again", async () => {
    const target = await variant("answer-rot.idx", () => undefined);
    const { index } = openStationsFile(target);
    try {
      const synop = index.directories.SYNOP;
      const { at, bytes: length } = layout(bytes).answerOf("SYNOP", "87582");
      const text = bytes.subarray(at, at + length);
      // The stored text is the answer's family member: one JSON object with the station's records.
      expect((JSON.parse(text.toString("utf8")) as { history: object }).history).toBeTypeOf("object");
      const handle = await fs.open(target, "r+");
      // One byte of the text changed before the first read: still a '{...}', only the CRC tells.
      await handle.write(Buffer.from(" "), 0, 1, at + 1);
      const err = thrown(() => synop.answerOf("87582")) as DataFormatError;
      expect(err).toBeInstanceOf(DataFormatError);
      expect(err.where).toMatchObject({ file: target, field: "SYNOP.answers (87582)" });
      expect(err.message).toMatch(new RegExp(`expected ${length} bytes of CRC-32 [0-9a-f]{8}, got CRC-32 [0-9a-f]{8}$`));
      // Mended, the read passes and is remembered: damage after it is the scrub's to find.
      await handle.write(text.subarray(1, 2), 0, 1, at + 1);
      expect(Buffer.from(synop.answerOf("87582")!).equals(text)).toBe(true);
      await handle.write(Buffer.from(" "), 0, 1, at + 1);
      expect(synop.answerOf("87582")![1]).toBe(0x20);
      await handle.close();
      // A station that has not reported has no answer; an unknown one neither.
      expect(synop.answerOf("00000")).toBeUndefined();
    } finally {
      index.close();
    }
  });

  it("fails the read of an answer cut off by a truncated file", async () => {
    const { at, bytes: length } = layout(bytes).answerOf("SYNOP", "87582");
    const target = await variant("answer-cut.idx", () => undefined);
    const { index } = openStationsFile(target);
    try {
      await fs.truncate(target, at + 10);
      const err = thrown(() => index.directories.SYNOP.answerOf("87582")) as DataFormatError;
      expect(err).toBeInstanceOf(DataFormatError);
      expect(err.message).toMatch(new RegExp(`expected ${length} bytes of CRC-32 [0-9a-f]{8}, got 10 bytes \\(truncated file\\)$`));
    } finally {
      index.close();
    }
  });
});
