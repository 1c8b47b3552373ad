/**
 * The ranking model (server/places/ranking.ts) on the embedded gazetteer, with GeoNames' own rows
 * as the truth: the expected place of each query is read from the raw cities15000 dump (most
 * populous place whose own name equals / starts with the text), never from the code under test.
 * The queries are the hijacks reported in issue 15 and the typo-over-prefix cases of issue 31.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openEnvelope } from "../../../datasets/artifact/envelope.ts";
import { DATASETS } from "../../../datasets/catalog.ts";
import { EMBEDDED_DIR } from "../../../datasets/common/paths.ts";
import { foldName } from "../../../datasets/places/fold.ts";
import { PlacesIndex } from "../../../datasets/places/index-reader.ts";
import { memorySource } from "../../../datasets/common/byte-source.ts";
import { openSource, readLines } from "../../../pipeline/common/source.ts";
import { PlacesData } from "../../../server/places/places-data.ts";
import { isSwap } from "../../../server/places/search.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";

let data: PlacesData;
/** cities15000 rows (id, name, ascii name, alternate names, country, feature code, population), most populous first. */
let rows: { id: number; name: string; own: string[]; alternates: string[]; cc: string; code: string; population: number }[];

beforeAll(async () => {
  const dir = await defaultDatasetDir("places");
  const file = path.join(dir, DATASETS.places.file);
  const env = openEnvelope(await fs.readFile(file), { magic: DATASETS.places.magic, formatVersion: DATASETS.places.formatVersion, file });
  data = new PlacesData(PlacesIndex.open(memorySource(env.payload), env.metadata, file));
  rows = [];
  for await (const { line } of readLines((await openSource(path.join(EMBEDDED_DIR, "geonames", "cities15000.zip"))).stream)) {
    const f = line.split("\t");
    if (f.length !== 19) continue;
    rows.push({ id: Number(f[0]), name: f[1]!, own: [foldName(f[1]!), foldName(f[2]!)], alternates: f[3] ? f[3].split(",").map(foldName) : [], cc: f[8]!, code: f[7]!, population: Number(f[14]) });
  }
  rows.sort((a, b) => b.population - a.population || a.id - b.id);
}, 300_000);

const ids = (q: string, limit = 5): number[] => data.search(q, limit, 0).places.map((p) => data.index.record(p).geonameId!);
const ownNamed = (q: string): number => rows.find((r) => r.own.includes(foldName(q)))!.id;
const ownStartingWith = (q: string): number => rows.find((r) => r.own.some((n) => n.startsWith(foldName(q))))!.id;
const populationOf = (id: number): number => rows.find((r) => r.id === id)!.population;

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

  it("puts a bigger place by its alternate name before a town, not a capital, that has the name as its own (Medina: Madinah)", () => {
    // The outside gazetteer (SimpleMaps world cities) lists each text as the bigger place's name:
    // Medina (SA), Geneva (CH), Aksu (CN, Xinjiang), Kumi (KR), Durango (MX).
    for (const [q, cc] of [["Medina", "SA"], ["Geneva", "CH"], ["Aksu", "CN"], ["Kumi", "KR"], ["Durango", "MX"]] as const) {
      const owner = rows.find((r) => r.own.includes(foldName(q)))!;
      const carrier = rows.find((r) => r.alternates.includes(foldName(q)) && !r.own.includes(foldName(q)))!;
      // The premise, from the raw rows: the own-named place is a town below 100,000 and no capital;
      // the most populous place with the text as an alternate name is in the source's country and bigger.
      expect(owner.population, q).toBeLessThan(100_000);
      expect(["PPLC", "PPLA", "PPLG"], q).not.toContain(owner.code);
      expect(carrier.cc, q).toBe(cc);
      expect(carrier.population, q).toBeGreaterThan(owner.population);
      expect(ids(q)[0], q).toBe(carrier.id);
      expect(ids(q), q).toContain(owner.id);
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
    for (const q of ["Sant", "Lika", "Ji’a"]) {
      const n = Math.min(60, data.search(q, 0, 0).total);
      const all = ids(q, n);
      const paged: number[] = [];
      for (let offset = 0; offset < n; offset += 3) paged.push(...data.search(q, 3, offset).places.map((p) => data.index.record(p).geonameId!));
      expect(paged, q).toEqual(all);
      expect(new Set(all).size, q).toBe(n);
    }
  });
});

describe("ranking: a typo never outranks a real prefix of comparable importance (issue 31)", () => {
  it("completes Lika, Kago, Xuan to Likasi, Kagoshima, Xuancheng, not to the bigger Lima, Kano, Xi'an one edit away", () => {
    for (const [q, typoOf] of [["Lika", "Lima"], ["Kago", "Kano"], ["Xuan", "Xi'an"]] as const) {
      const want = ownStartingWith(q);
      const bigger = ownNamed(typoOf);
      // The premise, from the raw rows: the place one edit away is the bigger one (6 to 13 times).
      expect(populationOf(bigger), q).toBeGreaterThan(5 * populationOf(want));
      expect(ids(q)[0], q).toBe(want);
      expect(ids(q), q).toContain(bigger);
    }
  });

  it("still corrects a typo to a place far bigger than the prefix matches: Kapur is Kanpur (28 times Kapurthala)", () => {
    expect(populationOf(ownNamed("Kanpur"))).toBeGreaterThan(20 * populationOf(ownStartingWith("Kapur")));
    expect(ids("Kapur")[0]).toBe(ownNamed("Kanpur"));
  });

  it("suggests for Berl only places whose name starts with Berl, no typo (Bell, Bera, Bern) among the first five", () => {
    const names = data.search("Berl", 5, 0).places.map((p) => foldName(data.index.record(p).name));
    expect(names).toHaveLength(5);
    for (const n of names) expect(n.startsWith("berl"), n).toBe(true);
  });

  it("corrects Ragpur to Rangpur (a letter left out) before the bigger Nagpur (the first letter changed)", () => {
    expect(populationOf(ownNamed("Nagpur"))).toBeGreaterThan(populationOf(ownNamed("Rangpur")));
    expect(ids("Ragpur")[0]).toBe(ownNamed("Rangpur"));
  });

  it("completes Mila to Milan (22 times Mila, Algeria, whose own name Mila is)", () => {
    expect(rows.some((r) => r.own.includes("mila"))).toBe(true);
    expect(ids("Mila")[0]).toBe(ownStartingWith("Milan"));
  });

  it('keeps a typed final space and apostrophe: "San " is the word San, "Ji’a" is Ji’an', () => {
    const san = data.search("San ", 5, 0).places.map((p) => foldName(data.index.record(p).name));
    for (const n of san) expect(n.startsWith("san "), n).toBe(true);
    const jian = rows.find((r) => /^Ji[’']an$/.test(r.name))!;
    // The premise: Jiangmen, Jiangyin, Jiaxing... are bigger and fold to the same "jia".
    expect(rows.filter((r) => r.own.some((n) => n.startsWith("jia")) && r.population > jian.population).length).toBeGreaterThan(5);
    expect(ids("Ji’a")[0]).toBe(jian.id);
  });

  it("takes two swapped neighbouring letters for the place typed (Xainyang: Xianyang) before a bigger place one other edit away (Xinyang)", () => {
    // The premise, from the raw rows: Xinyang is bigger, and "xainyang" is one deletion from it.
    expect(populationOf(ownNamed("Xinyang"))).toBeGreaterThan(populationOf(ownNamed("Xianyang")));
    expect(ids("Xainyang")[0]).toBe(ownNamed("Xianyang"));
  });
});

describe("isSwap", () => {
  const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
  const swap = (key: string, query: string): boolean => isSwap(bytes(key), 0, bytes(key).length, bytes(query));
  it("is true for exactly one swap of neighbouring bytes", () => {
    expect(swap("xianyang", "xainyang")).toBe(true);
    expect(swap("ab", "ba")).toBe(true);
    expect(swap("paris", "parsi")).toBe(true);
  });
  it("is false for other edits, two swaps, equal texts and other lengths", () => {
    expect(swap("xinyang", "xainyang")).toBe(false);
    expect(swap("paris", "pairs")).toBe(true);
    expect(swap("paris", "apirs")).toBe(false);
    expect(swap("paris", "praiss")).toBe(false);
    expect(swap("paris", "paris")).toBe(false);
    expect(swap("paris", "pbris")).toBe(false);
    expect(swap("abc", "cba")).toBe(false);
  });
  it("reads the key at its offsets in the shared key bytes", () => {
    const keys = bytes("romeparislima");
    expect(isSwap(keys, 4, 9, bytes("apris"))).toBe(true);
    expect(isSwap(keys, 4, 9, bytes("ropme"))).toBe(false);
  });
});
