/**
 * The ranking model (server/places/ranking.ts) on the embedded gazetteer, with GeoNames' own rows
 * as the truth: the expected place of each query is read from the raw cities15000 dump (most
 * populous place whose own name equals / starts with the text), never from the code under test.
 * The queries are the hijacks reported in issue 15.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openEnvelope } from "../../../datasets/artifact/envelope.ts";
import { DATASETS } from "../../../datasets/catalog.ts";
import { EMBEDDED_DIR } from "../../../datasets/common/paths.ts";
import { foldName } from "../../../datasets/places/fold.ts";
import { PlacesIndex } from "../../../datasets/places/index-reader.ts";
import { openSource, readLines } from "../../../pipeline/common/source.ts";
import { PlacesData } from "../../../server/places/places-data.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";

let data: PlacesData;
/** cities15000 rows (id, name, ascii name, alternate names, country, population), most populous first. */
let rows: { id: number; own: string[]; alternates: string[]; cc: string; population: number }[];

beforeAll(async () => {
  const dir = await defaultDatasetDir("places");
  const file = path.join(dir, DATASETS.places.file);
  const env = openEnvelope(await fs.readFile(file), { magic: DATASETS.places.magic, formatVersion: DATASETS.places.formatVersion, file });
  data = new PlacesData(PlacesIndex.from(env.payload));
  rows = [];
  for await (const { line } of readLines((await openSource(path.join(EMBEDDED_DIR, "geonames", "cities15000.zip"))).stream)) {
    const f = line.split("\t");
    if (f.length !== 19) continue;
    rows.push({ id: Number(f[0]), own: [foldName(f[1]!), foldName(f[2]!)], alternates: f[3] ? f[3].split(",").map(foldName) : [], cc: f[8]!, population: Number(f[14]) });
  }
  rows.sort((a, b) => b.population - a.population || a.id - b.id);
}, 300_000);

const ids = (q: string, limit = 5): number[] => data.search(q, limit, 0).places.map((p) => data.index.geonameId[p]!);
const ownNamed = (q: string): number => rows.find((r) => r.own.includes(foldName(q)))!.id;
const ownStartingWith = (q: string): number => rows.find((r) => r.own.some((n) => n.startsWith(foldName(q))))!.id;

describe("ranking: own names, alternate names, prefixes and typos", () => {
  it("puts the place called so before a capital or bigger place one of whose alternate names it is", () => {
    for (const [q, other] of [["Philadelphia", "Amman"], ["Victoria", "Hong Kong"], ["Cancún", "Changchun"], ["Dili", "Delhi"]] as const) {
      const hijacker = rows.find((r) => r.own.includes(foldName(other)))!;
      // The premise, from the raw rows: the other place (a capital, or bigger) carries the text as an alternate name.
      expect(hijacker.alternates).toContain(foldName(q));
      const want = ownNamed(q);
      expect(ids(q)[0], q).toBe(want);
      expect(ids(q, 10), q).toContain(hijacker.id);
    }
  });

  it("still finds a place by an alternate name nothing else is called (Bombay: Mumbai)", () => {
    const mumbai = ownNamed("Mumbai");
    expect(rows.find((r) => r.id === mumbai)!.alternates).toContain("bombay");
    expect(ids("Bombay")[0]).toBe(mumbai);
  });

  it("completes prefixes to the big city rather than an exact tiny namesake or an alternate name", () => {
    for (const q of ["São P", "New Y", "Shen", "Lago", "Toro", "Kara", "Alma", "Buch"]) {
      expect(ids(q)[0], q).toBe(ownStartingWith(q));
    }
  });

  it("corrects short typos to the big city: ondon, Kapur, Changzhuo", () => {
    expect(ids("ondon")[0]).toBe(ownNamed("London"));
    expect(ids("Kapur")[0]).toBe(ownNamed("Kanpur"));
    expect(ids("Changzhuo")[0]).toBe(ownNamed("Changzhou"));
  });

  it("does not let a seat bonus put a smaller namesake first: Kochi (IN) before Kōchi (JP), Hamilton (CA) before Hamilton (NZ)", () => {
    for (const q of ["Kochi", "Hamilton", "Salem"]) expect(ids(q)[0], q).toBe(ownNamed(q));
  });

  it("keeps the order total: pages of 3 of a prefix with many matches equal one long list", () => {
    const all = ids("Sant", 60);
    const paged: number[] = [];
    for (let offset = 0; offset < 60; offset += 3) paged.push(...data.search("Sant", 3, offset).places.map((p) => data.index.geonameId[p]!));
    expect(paged).toEqual(all);
    expect(new Set(all).size).toBe(60);
  });
});
