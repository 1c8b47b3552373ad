/**
 * Regression cases of issue 39 ("search that finds what people type") on the embedded default.
 * The expected places are read from the raw GeoNames rows (cities500 merged with cities15000 by
 * hand here, not by the code under test): each named place is checked to be in the dumps with the
 * name, country, admin-1 code and alternate names the case relies on, and to be the most populous
 * place so named where the case says so.
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
import { defaultDatasetDir } from "../../helpers/default-data.ts";

let data: PlacesData;
/** GeoNames id → row (19 columns) of the merged dumps. */
const rows = new Map<string, string[]>();

beforeAll(async () => {
  const dir = await defaultDatasetDir("places");
  const file = path.join(dir, DATASETS.places.file);
  const env = openEnvelope(await fs.readFile(file), { magic: DATASETS.places.magic, formatVersion: DATASETS.places.formatVersion, file });
  data = new PlacesData(PlacesIndex.open(memorySource(env.payload), env.metadata, file));
  for (const dump of ["cities500.zip", "cities15000.zip"]) {
    const src = await openSource(path.join(EMBEDDED_DIR, "geonames", dump));
    for await (const { line } of readLines(src.stream)) {
      if (line) rows.set(line.slice(0, line.indexOf("\t")), line.split("\t"));
    }
  }
});

const ids = (q: string, limit = 5): string[] => data.search(q, limit, 0).places.map((p) => data.point(p).id);
const first = (q: string): string | undefined => ids(q, 1)[0];

/** The GeoNames row of `id`, checked to carry this name, country and admin-1 code. */
function row(id: string, name: string, country: string, admin1?: string): string[] {
  const r = rows.get(id);
  expect(r, `gn:${id} in the embedded dumps`).toBeDefined();
  expect([r![1], r![8], r![10]]).toEqual([name, country, admin1 ?? r![10]]);
  return r!;
}

/** The GeoNames id of the most populous row whose main name is `name` (in `country` when given). */
function mostPopulous(name: string, country?: string): string {
  let best: string[] | undefined;
  for (const r of rows.values()) {
    if (r[1] !== name || (country !== undefined && r[8] !== country)) continue;
    if (!best || Number(r[14]) > Number(best[14])) best = r;
  }
  return best![0]!;
}

function hasAlternate(id: string, alternate: string): void {
  expect(rows.get(id)![3]!.split(","), `alternate names of gn:${id}`).toContain(alternate);
}

describe("qualifiers as people write them (issue 39, item 1 and 2)", () => {
  it("knows regions under their local, English and common names (Natural Earth admin-1)", () => {
    // GeoNames admin-1 ID.30 is "West Java", IT.13 "Apulia", KR.13 "Gyeonggi-do", RU.48 "Moscow".
    const cases: [string, string, string, string, string][] = [
      ["Bekasi, Jawa Barat", "1649378", "Bekasi", "ID", "30"],
      ["Bari, Puglia", "3182351", "Bari", "IT", "13"],
      ["Suwon, Gyeonggi", "1835553", "Suwon", "KR", "13"],
      ["Moscow, Moskva", "524901", "Moscow", "RU", "48"],
      ["Manila, Manila", "1701668", "Manila", "PH", "NCR"],
    ];
    for (const [q, id, name, country, admin1] of cases) {
      row(id, name, country, admin1);
      expect(first(q), q).toBe(`gn:${id}`);
    }
  });

  it("takes a county or province as naming the admin-1 area that holds it", () => {
    // Preston, Lancashire: GeoNames GB.ENG, admin-2 H2 (Lancashire); the biggest Preston anywhere.
    const preston = row("2639912", "Preston", "GB", "ENG");
    expect(preston[11]).toBe("H2");
    expect(first("Preston, Lancashire")).toBe("gn:2639912");
    for (const p of data.search("Preston, Lancashire", 10, 0).places) expect(data.point(p).ISO2).toBe("GB");
  });

  it("knows countries by former and reference-list forms", () => {
    row("785082", "Tetovo", "MK");
    row("2413876", "Banjul", "GM");
    row("1835848", "Seoul", "KR");
    row("2081986", "Palikir", "FM");
    expect(first("Tetovo, Macedonia")).toBe("gn:785082");
    expect(first("Banjul, The Gambia")).toBe("gn:2413876");
    expect(first("Banjul, Gambia, The")).toBe("gn:2413876");
    expect(first("Seoul, Korea, South")).toBe("gn:1835848");
    expect(first("Seoul, Korea, Republic of")).toBe("gn:1835848");
    expect(first("Palikir, Micronesia, Federated States of")).toBe("gn:2081986");
    // "Korea, South" filters: no Seoul-named place outside South Korea comes back.
    for (const p of data.search("Seoul, Korea, South", 20, 0).places) expect(data.point(p).ISO2).toBe("KR");
  });

  it("never empties an answer for an unknown qualifier; the name still finds its places", () => {
    const bekasi = mostPopulous("Bekasi");
    expect(bekasi).toBe("1649378");
    for (const q of ["Bekasi, Xqzwv", "Bekasi, Провинция", "Bekasi, 西爪哇省", "Bekasi,,, ,", `Bekasi, ${"x".repeat(5000)}`, `Bekasi${", y".repeat(2000)}`]) {
      expect(first(q), q.slice(0, 30)).toBe(`gn:${bekasi}`);
    }
    // Lyon is FR.84 in the dumps; a region name written in full or the pre-2016 region both find it.
    row("2996944", "Lyon", "FR", "84");
    expect(first("Lyon, Auvergne-Rhône-Alpes")).toBe("gn:2996944");
    expect(first("Lyon, Rhône-Alpes")).toBe("gn:2996944");
    // Trailing words without a comma.
    expect(first("Bekasi Jawa Barat")).toBe("gn:1649378");
    expect(first("Bekasi Xqzwv")).toBe("gn:1649378");
  });

  it("ranks places whose region resembles an unknown qualifier first", () => {
    // Springfield, Missouri (gn:4409896) is more populous than Springfield, Illinois (gn:4250542).
    const mo = row("4409896", "Springfield", "US", "MO");
    const il = row("4250542", "Springfield", "US", "IL");
    expect(Number(mo[14])).toBeGreaterThan(Number(il[14]));
    // "Illinoise" and "Illin" name no known area but begin, or are begun by, "Illinois".
    expect(first("Springfield, Illinoise")).toBe("gn:4250542");
    expect(first("Springfield, Illin")).toBe("gn:4250542");
  });

  it("keeps a known qualifier a filter, and softens it only when it leaves nothing", () => {
    for (const p of data.search("Springfield, IL", 10, 0).places) expect(data.point(p).address).toContain("Illinois");
    // No Bekasi in Bavaria: the qualifier becomes soft instead of emptying the answer.
    expect(first("Bekasi, Bavaria")).toBe("gn:1649378");
  });
});

describe("exact before near (issue 39, item 3)", () => {
  it("ranks an exact name above prefixes and typos of other places", () => {
    const cases: [string, string, string, string][] = [
      // [query, id, country, the near match that came first before]
      ["Porto", "2735943", "PT", "Porto Alegre"],
      ["Pudong", "1798524", "CN", "Yudong"],
      ["Auch", "3036281", "FR", "Auchi"],
      ["Seyhan", "300997", "TR", "Ceyhan"],
      ["Timbío", "3667073", "CO", "Timbó"],
    ];
    for (const [q, id, country] of cases) {
      row(id, q, country);
      expect(first(q), q).toBe(`gn:${id}`);
    }
    // Kunsan is Gunsan's alternate name, Kunshan (China) a typo away.
    row("1842025", "Gunsan", "KR");
    hasAlternate("1842025", "Kunsan");
    expect(first("Kunsan")).toBe("gn:1842025");
  });
});

describe("typos and prefixes of alternate names (issue 39, item 4)", () => {
  it("recovers typos of English exonyms and common names", () => {
    const cases: [string, string, string, string][] = [
      ["New Yrok", "5128581", "New York City", "New York"],
      ["Ulanabaatar", "2028462", "Ulan Bator", "Ulaanbaatar"],
      ["Bangalroe", "1277333", "Bengaluru", "Bangalore"],
      ["Jaurez", "4013708", "Ciudad Juárez", "Juarez"],
    ];
    for (const [q, id, name, alternate] of cases) {
      row(id, name, rows.get(id)![8]!);
      hasAlternate(id, alternate);
      expect(first(q), q).toBe(`gn:${id}`);
    }
  });

  it("reaches alternate names by their first letters", () => {
    hasAlternate("1298824", "Rangoon");
    hasAlternate("1253102", "Vishakhapatnam");
    expect(ids("Rang"), "Rang").toContain("gn:1298824");
    expect(ids("Vish"), "Vish").toContain("gn:1253102");
    // Still: the place whose own name is typed comes first.
    expect(foldName(rows.get(first("Rang")!.slice(3))![1]!).startsWith("rang")).toBe(true);
  });
});
