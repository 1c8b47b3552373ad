import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildMetadata, encodeEnvelopeHeader, type BuildMetadata } from "../../../datasets/artifact/envelope.ts";
import { memorySource } from "../../../datasets/common/byte-source.ts";
import { DATASETS } from "../../../datasets/catalog.ts";
import { DataFormatError } from "../../../datasets/common/errors.ts";
import { rawVariantHashes } from "../../../datasets/places/deletions.ts";
import { openPlacesFile, PlacesIndex } from "../../../datasets/places/index-reader.ts";
import { PlacesIndexWriter } from "../../../datasets/places/index-writer.ts";
import type { PlacesTables } from "../../../datasets/places/index-format.ts";
import { prefixEnd } from "../../../datasets/places/key-table.ts";

const tables: PlacesTables = {
  countries: [],
  continents: [],
  admin1: [],
  features: [{ featureClass: "P", featureCode: "PPLC" }],
  timezones: ["Europe/Berlin"],
  // Qualifier keys in UTF-16 order, as the pipeline gives them; the writer stores them in byte order.
  qualifiers: [{ key: "de", countries: [3], admin1: [] }, { key: "brandenburg", countries: [], admin1: [7, 9] }],
  qualifierWords: [{ word: "brandenburg", countries: [], admin1: [7] }],
};

const dir = mkdtempSync(path.join(os.tmpdir(), "places-index-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const newWriter = (): PlacesIndexWriter => new PlacesIndexWriter(tables, mkdtempSync(path.join(dir, "w")));
const spec = DATASETS.places;

/** The payload and the metadata an envelope around it would carry. */
function written(w: PlacesIndexWriter): { payload: Uint8Array; metadata: BuildMetadata } {
  const file = path.join(dir, `payload-${n++}`);
  const out = w.finish(file);
  const payload = new Uint8Array(readFileSync(file));
  expect(payload.byteLength).toBe(out.bytes);
  const input = { magic: spec.magic, formatVersion: spec.formatVersion, kind: "places", sources: [], counts: { places: w.placeCount, keys: w.keyCount, fuzzyKeys: 2 } };
  return { payload, metadata: buildMetadata(input, out.bytes, out.crc32) };
}

/** Berlin, Potsdam and Sankt Marienkirchen bei Schärding from cities500, with keys. */
function berlinPotsdam(): PlacesIndexWriter {
  const w = newWriter();
  w.addPlace({ geonameId: 2950159, name: "Berlin", lat: 52.52437, lon: 13.41053, population: 3426354, country: -1, admin1: -1, feature: 0, timezone: 0 });
  w.addPlace({ geonameId: 2852458, name: "Potsdam", lat: 52.39886, lon: 13.06566, population: 129837, country: -1, admin1: -1, feature: 0, timezone: 0 });
  w.addPlace({ geonameId: 2766539, name: "Sankt Marienkirchen bei Schärding", lat: 48.3871, lon: 13.45078, population: 716, country: -1, admin1: -1, feature: 0, timezone: 0 });
  w.addKey("berlin", [0 * 4 + 2], true);
  w.addKey("potsdam", [1 * 4 + 2], true);
  w.addKey("берлин", [0 * 4], false);
  return w;
}

/** The payload written into an envelope file. */
function envelopeFile(payload: Uint8Array, metadata: BuildMetadata): string {
  const file = path.join(dir, `places-${n++}.idx`);
  const head = encodeEnvelopeHeader({ magic: spec.magic, formatVersion: spec.formatVersion, kind: "places", sources: [], counts: metadata.counts }, metadata.payloadBytes, metadata.payloadCrc32);
  writeFileSync(file, Buffer.concat([head, payload]));
  return file;
}

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

describe("places index format", () => {
  it("round-trips places and keys (Berlin and Potsdam from cities500)", () => {
    const { payload, metadata } = written(berlinPotsdam());
    const ix = PlacesIndex.open(memorySource(payload), metadata);
    expect(ix.placeCount).toBe(3);
    expect(ix.record(1)).toEqual({ geonameId: 2852458, name: "Potsdam", lat: 52.39886, lon: 13.06566, population: 129837, country: undefined, admin1: undefined, feature: 0, timezone: 0 });
    expect(ix.record(0).lat).toBe(52.52437);
    // A name longer than the record holds inline (34 bytes) comes whole.
    expect(ix.record(2)).toMatchObject({ geonameId: 2766539, name: "Sankt Marienkirchen bei Schärding", lat: 48.3871, population: 716 });
    expect(ix.areas.timezones[ix.record(1).timezone!]).toBe("Europe/Berlin");
    expect(ix.placeByGeonameId(2852458)).toBe(1);
    expect(ix.placeByGeonameId(2950159)).toBe(0);
    expect(ix.placeByGeonameId(1)).toBeUndefined();
    expect(ix.placeByGeonameId(4294967295)).toBeUndefined();
    // Values: the first posting and the count, the typo flag in the top bit.
    expect(ix.keys.find(utf8("берлин"))).toEqual([2, 1]);
    expect(ix.keys.find(utf8("berlin"))).toEqual([0, 0x80000001]);
    expect(ix.keys.find(utf8("ber"))).toBeUndefined();
    expect(ix.keys.range(utf8("b"), prefixEnd(utf8("b"))).count).toBe(1);
    const postings = ix.postings(2, 1);
    expect(postings.posting(0)).toBe(0);
    // log10(3426354 + 1) as float32.
    expect(postings.base(0)).toBe(Math.fround(Math.log10(3426355)));
    expect(ix.typoKeyCount).toBe(2);
    const de = ix.qualifiers.find(utf8("de"))!;
    expect(ix.qualifierAreas(de[0], de[1])).toEqual({ countries: [3], admin1: [] });
    const word = ix.words.find(utf8("brandenburg"))!;
    expect(ix.qualifierAreas(word[0], word[1])).toEqual({ countries: [], admin1: [7] });
  });

  it("finds a typo key through its variants' entries", () => {
    const { payload, metadata } = written(berlinPotsdam());
    const ix = PlacesIndex.open(memorySource(payload), metadata);
    // The unchanged prefix window of "potsdam" is one of its variants: its entries hold the key's record.
    const found: number[] = [];
    const [whole] = rawVariantHashes("potsdam", 0, "prefix");
    const [words] = ix.variantEntries([whole!]);
    for (let p = 0; p < words!.length / 2; p++) if ((words![2 * p]! & 0xffff) === (whole! & 0xffff)) found.push(words![2 * p + 1]!);
    expect(found).toHaveLength(1);
    // A variant no key has: no entries.
    expect(ix.variantEntries(rawVariantHashes("qqqqzzz", 0, "prefix"))[0]).toHaveLength(0);
    const [potsdam] = ix.typoKeys(found);
    expect(new TextDecoder().decode(potsdam!.bytes)).toBe("potsdam");
    expect(potsdam!.postingStart).toBe(1);
    // Several records, given in any order: each comes back where it was asked.
    const berlin = ix.typoKeys([0])[0]!;
    expect(ix.typoKeys([found[0]!, 0]).map((k) => new TextDecoder().decode(k.bytes))).toEqual(["potsdam", "berlin"]);
    expect(ix.postingsOf([potsdam!, berlin]).map((p) => p.posting(0) >>> 2)).toEqual([1, 0]);
  });

  it("refuses keys out of byte order and postings out of place order", () => {
    const w = newWriter();
    w.addPlace({ geonameId: 1, name: "A", lat: 0, lon: 0, population: 0, country: -1, admin1: -1, feature: 0, timezone: -1 });
    w.addPlace({ geonameId: 2, name: "B", lat: 0, lon: 0, population: 0, country: -1, admin1: -1, feature: 0, timezone: -1 });
    w.addKey("potsdam", [0], true);
    expect(() => w.addKey("berlin", [0], true)).toThrow(DataFormatError);
    expect(() => w.addKey("zz", [4, 0], true)).toThrow(/ascending/);
    expect(() => w.addKey("zzz", [8], true)).toThrow(/place indexes below 2/);
  });

  it("refuses a damaged section table", () => {
    const { payload, metadata } = written(newWriter());
    payload[0] = 7;
    expect(() => PlacesIndex.open(memorySource(payload), metadata)).toThrow(/16 sections/);
  });

  it("opens a file through the envelope, and refuses a truncated or foreign one with expected versus got", () => {
    const { payload, metadata } = written(berlinPotsdam());
    const file = envelopeFile(payload, metadata);
    const opened = openPlacesFile(file);
    expect(opened.index.record(0).name).toBe("Berlin");
    opened.index.close();

    const whole = readFileSync(file);
    const truncated = path.join(dir, "truncated.idx");
    writeFileSync(truncated, whole.subarray(0, whole.byteLength - 100));
    expect(() => openPlacesFile(truncated)).toThrow(new RegExp(`expected a payload of ${payload.byteLength} bytes, got ${payload.byteLength - 100} bytes`));
    // Cut inside the header: still the reader's error, not a crash.
    writeFileSync(truncated, whole.subarray(0, 10));
    expect(() => openPlacesFile(truncated)).toThrow(DataFormatError);

    const foreign = path.join(dir, "foreign.idx");
    const admin = Buffer.from(whole);
    admin.write("GEODADMN", 0, "latin1");
    writeFileSync(foreign, admin);
    expect(() => openPlacesFile(foreign)).toThrow(/expected magic GEODPLCS, got "GEODADMN"/);

    const old = Buffer.from(whole);
    old.writeUInt32LE(6, 8);
    writeFileSync(foreign, old);
    expect(() => openPlacesFile(foreign)).toThrow(/expected format version 7, got version 6/);
  });

  it("reports a damaged key block as a DataFormatError naming the table, at the read", () => {
    const { payload, metadata } = written(berlinPotsdam());
    const ix = PlacesIndex.open(memorySource(payload), metadata);
    // The key block's count (its first u32) made larger than a block can hold.
    const keyBlocksAt = new DataView(payload.buffer).getUint32(4 + 5 * 8, true);
    new DataView(payload.buffer).setUint32(keyBlocksAt, 999, true);
    expect(() => ix.keys.find(utf8("berlin"))).toThrow(/keys block 0.*expected 1 to 32 keys/);
  });

  it("reports a typo key record that runs past its section as a DataFormatError naming the offset", () => {
    const { payload, metadata } = written(berlinPotsdam());
    const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
    const typoKeysAt = view.getUint32(4 + 8 * 8, true);
    // Record 0 ("berlin"): its key's byte length (u16 at 8) made longer than the section.
    view.setUint16(typoKeysAt + 8, 0xffff, true);
    const ix = PlacesIndex.open(memorySource(payload), metadata);
    expect(() => ix.typoKeys([0])).toThrow(DataFormatError);
    expect(() => ix.typoKeys([0])).toThrow(/offset 0, field typoKeys.*expected a typo key record within the \d+-byte section, got a key of 65535 bytes past the end/);
    // An offset past the last record: not even its head fits.
    expect(() => ix.typoKeys([1 << 20])).toThrow(/got its head past the end/);
  });

  it("refuses a variant directory out of hash order, or not ending at the entry count", () => {
    const { payload, metadata } = written(berlinPotsdam());
    const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
    const directoryAt = view.getUint32(4 + 9 * 8, true);
    const directoryLength = view.getUint32(8 + 9 * 8, true);
    // Block 0's first hash moved to the last group: block 1 then comes before it.
    const outOfOrder = new Uint8Array(payload);
    new DataView(outOfOrder.buffer).setUint32(directoryAt, 0xffff0000, true);
    expect(() => PlacesIndex.open(memorySource(outOfOrder), metadata)).toThrow(/variantDirectory\[1\].*expected blocks in ascending hash order, got group \d+ after 65535/);
    // The sentinel's entry count one short.
    const short = new Uint8Array(payload);
    const sentinelAt = directoryAt + directoryLength - 4;
    const dv = new DataView(short.buffer);
    dv.setUint32(sentinelAt, dv.getUint32(sentinelAt, true) - 1, true);
    expect(() => PlacesIndex.open(memorySource(short), metadata)).toThrow(/variantDirectory.*ending with the entry count/);
  });
});
