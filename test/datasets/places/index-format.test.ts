import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DataFormatError } from "../../../datasets/common/errors.ts";
import { PlacesIndex } from "../../../datasets/places/index-reader.ts";
import { PlacesIndexWriter } from "../../../datasets/places/index-writer.ts";
import type { PlacesTables } from "../../../datasets/places/index-format.ts";

const tables: PlacesTables = { countries: [], continents: [], admin1: [], features: [{ featureClass: "P", featureCode: "PPLC" }], timezones: ["Europe/Berlin"], qualifiers: [], qualifierWords: [] };

const dir = mkdtempSync(path.join(os.tmpdir(), "places-index-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const newWriter = (): PlacesIndexWriter => new PlacesIndexWriter(tables, mkdtempSync(path.join(dir, "w")));
function payloadOf(w: PlacesIndexWriter): Uint8Array {
  const file = path.join(dir, `payload-${n++}`);
  const written = w.finish(file);
  const bytes = new Uint8Array(readFileSync(file));
  expect(bytes.byteLength).toBe(written.bytes);
  return bytes;
}

describe("places index format", () => {
  it("round-trips places and keys (Berlin and Potsdam from cities500)", () => {
    const w = newWriter();
    w.addPlace({ geonameId: 2950159, name: "Berlin", lat: 52.52437, lon: 13.41053, population: 3426354, country: -1, admin1: -1, feature: 0, timezone: 0 });
    w.addPlace({ geonameId: 2852458, name: "Potsdam", lat: 52.39886, lon: 13.06566, population: 129837, country: -1, admin1: -1, feature: 0, timezone: 0 });
    w.addKey("berlin", [0 * 4 + 2], true);
    w.addKey("potsdam", [1 * 4 + 2], true);
    w.addKey("берлин", [0 * 4], false);
    const ix = PlacesIndex.from(payloadOf(w));
    expect(ix.placeCount).toBe(2);
    expect(ix.name(1)).toBe("Potsdam");
    expect(ix.lat(0)).toBe(52.52437);
    expect(ix.lon(1)).toBe(13.06566);
    expect(ix.population[0]).toBe(3426354);
    expect(ix.countryOf(0)).toBeUndefined();
    expect(ix.timezoneOf(1)).toBe("Europe/Berlin");
    expect(ix.placeByGeonameId(2852458)).toBe(1);
    expect(ix.placeByGeonameId(1)).toBeUndefined();
    expect(ix.findKey(new TextEncoder().encode("берлин"))).toBe(2);
    expect(ix.findKey(new TextEncoder().encode("ber"))).toBeUndefined();
    expect(ix.fuzzyKeys.length).toBe(2);
  });

  it("refuses keys out of byte order and postings out of place order", () => {
    const w = newWriter();
    w.addKey("potsdam", [0], true);
    expect(() => w.addKey("berlin", [0], true)).toThrow(DataFormatError);
    expect(() => w.addKey("zz", [8, 4], true)).toThrow(/ascending/);
  });

  it("refuses a damaged section table", () => {
    const bytes = payloadOf(newWriter());
    bytes[0] = 7;
    expect(() => PlacesIndex.from(bytes)).toThrow(/21 sections/);
  });
});
