/**
 * The fuzzy matcher's refined directory of variant hashes, on the embedded gazetteer's index:
 * every variant lies in the bucket of its own top 20 bits (its top 16 from the index's directory,
 * the next 4 from its low 16), the buckets cover the variants in order, and a refined bucket
 * splits its 16-bit bucket exactly. That typo matches are still found through it: search.test.ts.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openEnvelope } from "../../../datasets/artifact/envelope.ts";
import { DATASETS } from "../../../datasets/catalog.ts";
import { PlacesIndex } from "../../../datasets/places/index-reader.ts";
import { refineDirectory } from "../../../server/places/fuzzy.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";

let index: PlacesIndex;
beforeAll(async () => {
  const file = path.join(await defaultDatasetDir("places"), DATASETS.places.file);
  index = PlacesIndex.from(openEnvelope(await fs.readFile(file), { magic: DATASETS.places.magic, formatVersion: DATASETS.places.formatVersion, file }).payload);
}, 600_000);

describe("refineDirectory", () => {
  it("puts every variant in the bucket of its top 20 bits", () => {
    const dir = index.variantDirectory;
    const low = index.variantLow16;
    const fine = refineDirectory(dir, low);
    expect(fine.length).toBe(2 ** 20 + 1);
    expect(fine[0]).toBe(0);
    expect(fine[2 ** 20]).toBe(low.length);
    let checked = 0;
    for (let top = 0; top < 65536; top++) {
      // A 16-bit bucket is the union of its 16 refined ones.
      expect(fine[top << 4]).toBe(dir[top]);
      for (let p = dir[top]!; p < dir[top + 1]!; p += 97) {
        const t = (top << 4) | (low[p]! >>> 12);
        expect(p >= fine[t]! && p < fine[t + 1]!).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50_000);
  });
});
