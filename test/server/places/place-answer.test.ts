/**
 * A place by id (server/places/place-answer.ts) on the embedded default's places.idx, read where it
 * lies through a source that counts its reads: Berlin (GeoNames 2950159, its name inline in its
 * record) takes two reads, the id's block and the record, which the point and the administrative
 * description share; an unknown id is the 404 that names it.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEnvelopeFile } from "../../../datasets/artifact/envelope.ts";
import { DATASETS } from "../../../datasets/catalog.ts";
import type { ByteSource } from "../../../datasets/common/byte-source.ts";
import { PlacesIndex } from "../../../datasets/places/index-reader.ts";
import { placeAnswer } from "../../../server/places/place-answer.ts";
import { PlacesData } from "../../../server/places/places-data.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";

let source: ByteSource;
let places: PlacesData;
let reads = 0;

beforeAll(async () => {
  const spec = DATASETS.places;
  const file = path.join(await defaultDatasetDir("places"), spec.file);
  const opened = openEnvelopeFile(file, { magic: spec.magic, formatVersion: spec.formatVersion, file });
  source = opened.source;
  const counting: ByteSource = {
    read: (offset, length) => (reads++, opened.source.read(offset, length)),
    readInto: (offset, length, target) => (reads++, opened.source.readInto!(offset, length, target)),
  };
  places = new PlacesData(PlacesIndex.open(counting, opened.metadata, file));
}, 300_000);
afterAll(() => source.close?.());

describe("placeAnswer", () => {
  it("answers Berlin with two reads: the id's block and the record the point and the description share", () => {
    reads = 0;
    const answer = placeAnswer(places, { id: "gn:2950159", geonameId: 2950159 });
    expect(reads).toBe(2);
    expect(answer.point).toMatchObject({ id: "gn:2950159", name: "Berlin", ISO2: "DE" });
    expect(answer.timezone.zone).toBe("Europe/Berlin");
  });

  it("answers an id the gazetteer lacks with a 404 naming it", () => {
    expect(() => placeAnswer(places, { id: "gn:1", geonameId: 1 })).toThrow(expect.objectContaining({ status: 404, message: expect.stringContaining("gn:1") }));
  });
});
