import { promises as fs } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
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
/**
 * The embedded gazetteer's rows from the raw dumps, split and merged by hand (not by the code
 * under test): cities500 (2023), then cities15000 (2025) replacing rows with the same GeoNames id.
 */
let raw: string[][];
let cities500Ids: Set<string>;
let cities15000Ids: Set<string>;

beforeAll(async () => {
  const dir = await defaultDatasetDir("places");
  const file = path.join(dir, DATASETS.places.file);
  const env = openEnvelope(await fs.readFile(file), { magic: DATASETS.places.magic, formatVersion: DATASETS.places.formatVersion, file });
  data = new PlacesData(PlacesIndex.open(memorySource(env.payload), env.metadata, file));
  const merged = new Map<string, string[]>();
  const dumps: Record<string, Set<string>> = {};
  for (const dump of ["cities500.zip", "cities15000.zip"]) {
    const ids = (dumps[dump] = new Set<string>());
    const src = await openSource(path.join(EMBEDDED_DIR, "geonames", dump));
    for await (const { line } of readLines(src.stream)) {
      if (!line) continue;
      const cols = line.split("\t");
      merged.set(cols[0]!, cols);
      ids.add(cols[0]!);
    }
  }
  raw = [...merged.values()];
  cities500Ids = dumps["cities500.zip"]!;
  cities15000Ids = dumps["cities15000.zip"]!;
});

const first = (q: string): string | undefined => {
  const page = data.search(q, 1, 0);
  return page.places.length ? data.point(page.places[0]!).id : undefined;
};
const ids = (q: string, limit = 10): string[] => data.search(q, limit, 0).places.map((p) => data.point(p).id);

describe("forward geocoding on GeoNames cities500 merged with cities15000", () => {
  it("holds the union of both dumps' GeoNames ids", () => {
    expect(data.index.placeCount).toBe(raw.length);
    expect(raw.length).toBe(new Set([...cities500Ids, ...cities15000Ids]).size);
  });

  it("finds places that only the 2025 cities15000 has", () => {
    // Pimpri-Chinchwad (Maharashtra, 1.7 million people) and Khartoum North are not in the 2023 cities500.
    for (const [id, name] of [["7626690", "Pimpri-Chinchwad"], ["379251", "Khartoum North"]] as const) {
      expect(cities500Ids.has(id)).toBe(false);
      expect(cities15000Ids.has(id)).toBe(true);
      expect(first(name)).toBe(`gn:${id}`);
    }
  });

  it("places Ho Chi Minh City in admin-1 VN.79 as the 2025 cities15000 does, not VN.20 (Lạng Sơn since 2025)", async () => {
    const gz = await fs.readFile(path.join(EMBEDDED_DIR, "geonames", "admin1CodesASCII.txt.gz"));
    const vn79 = gunzipSync(gz).toString("utf8").split("\n").find((l) => l.startsWith("VN.79\t"))!.split("\t");
    const hcmc = data.placeByGeonameId(1566083)!;
    expect(data.administrativeInput(data.record(hcmc)).admin1).toMatchObject({ code: "VN.79", name: vn79[1], geonameId: Number(vn79[3]) });
    expect(data.point(hcmc).address).toEqual([vn79[1], "Vietnam"]);
    expect(first("Ho Chi Minh City")).toBe("gn:1566083");
  });

  it("finds the capital of France first for Paris", () => {
    expect(first("Paris")).toBe("gn:2988507");
    expect(data.point(data.search("Paris", 1, 0).places[0]!)).toMatchObject({ name: "Paris", ISO2: "FR", type: "capital of a political entity" });
  });

  it("finds the capitals of the 40 most populous countries first (countryInfo capital column)", async () => {
    const gz = await fs.readFile(path.join(EMBEDDED_DIR, "geonames", "countryInfo.txt.gz"));
    const rows = gunzipSync(gz).toString("utf8").split("\n").filter((l) => l && !l.startsWith("#")).map((l) => l.split("\t"));
    const top = rows.filter((r) => r[5]).sort((a, b) => Number(b[7]) - Number(a[7])).slice(0, 40);
    for (const r of top) {
      const page = data.search(r[5]!, 1, 0);
      expect(page.places.length, r[5]).toBe(1);
      expect(data.point(page.places[0]!), `${r[5]} (${r[0]})`).toMatchObject({ ISO2: r[0], type: "capital of a political entity" });
    }
    expect(first("Dili")).toBe("gn:1645457"); // capital of Timor-Leste, not Delhi (alternate name Dili)
  });

  it("restricts by admin-1 code, admin-1 name, country name and ISO code", () => {
    const springfield = data.search("Springfield, IL", 10, 0);
    expect(springfield.places.length).toBeGreaterThan(0);
    for (const p of springfield.places) expect(data.point(p).address).toEqual(expect.arrayContaining(["Illinois", "United States"]));
    expect(first("Springfield, IL")).toBe("gn:4250542"); // Springfield, the capital of Illinois
    expect(first("Portland, Oregon")).toBe("gn:5746545");
    expect(first("Cambridge, United Kingdom")).toBe("gn:2653941");
    expect(first("Cambridge, UK")).toBe("gn:2653941");
    const parisUs = data.search("Paris, US", 100, 0);
    expect(parisUs.total).toBeGreaterThan(5);
    for (const p of parisUs.places) expect(data.point(p).ISO2).toBe("US");
    expect(first("Paris, Texas")).toBe("gn:4717560");
    // ISO 3166-2 codes (from Natural Earth's iso_3166_2 / gn_a1_code pairs): Ontario is CA.08 in GeoNames.
    expect(first("Toronto, ON")).toBe("gn:6167865");
    expect(first("Sydney, NSW")).toBe("gn:2147714");
    expect(first("Melbourne, AU-VIC")).toBe("gn:2158177");
    expect(first("Vancouver, BC")).toBe("gn:6173331");
    expect(first("Paris, Frankreich")).toBe("gn:2988507");
    // Without a comma, a trailing qualifier is tried when the whole text matches nothing.
    expect(first("Portland Oregon")).toBe("gn:5746545");
    expect(first("Springfield Illinois")).toBe("gn:4250542");
  });

  it("folds case, diacritics and punctuation", () => {
    for (const q of ["Zürich", "zurich", "ZURICH"]) expect(first(q)).toBe("gn:2657896");
    expect(first("Krakow")).toBe("gn:3094802");
    expect(first("sao paulo")).toBe("gn:3448439");
    expect(first("Washington, D.C.")).toBe("gn:4140963");
  });

  it("finds by prefix", () => {
    expect(ids("ber")).toContain("gn:2950159");
    expect(ids("Berl")[0]).toBe("gn:2950159");
  });

  it("tolerates typos within the edit budget, and not beyond", () => {
    expect(first("Lodnon")).toBe("gn:2643743"); // transposition, 6 characters: 1 edit
    expect(first("Londn")).toBe("gn:2643743");
    expect(first("Amsterdm")).toBe("gn:2759794");
    expect(first("Barcelnoa")).toBe("gn:3128760"); // 9 characters: 2 edits
    // 5 characters: 1 edit only; London and Berlin are 2 edits away.
    expect(ids("Lnodn", 100)).not.toContain("gn:2643743");
    expect(ids("Brlni", 100)).not.toContain("gn:2950159");
  });

  it("finds places of 100,000+ people from a one-edit typo of their ASCII name in the top 10", () => {
    // Seeded edits (substitution, deletion, insertion, transposition) inside the name. Some typos
    // land exactly on another real name (Tampa → Tapa), so the bar is a rate, not every case.
    let seed = 3;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const big = raw.filter((r) => Number(r[14]) >= 100_000 && r[2]!.length >= 5);
    let found = 0;
    const n = 500;
    for (let i = 0; i < n; i++) {
      const r = big[Math.floor(rnd() * big.length)]!;
      const cps = [...r[2]!];
      const k = 1 + Math.floor(rnd() * (cps.length - 2));
      const op = Math.floor(rnd() * 4);
      if (op === 0) cps[k] = "q";
      else if (op === 1) cps.splice(k, 1);
      else if (op === 2) cps.splice(k, 0, "e");
      else [cps[k - 1], cps[k]] = [cps[k]!, cps[k - 1]!];
      if (ids(cps.join("")).includes(`gn:${r[0]}`)) found++;
    }
    expect(found / n).toBeGreaterThan(0.95);
  });

  it("finds non-Latin names", () => {
    expect(first("Москва")).toBe("gn:524901");
    expect(first("東京")).toBe("gn:1850147");
    expect(first("ベルリン")).toBe("gn:2950159");
  });

  it("finds the 20 most populous places first by their English and their native names", () => {
    const top = [...raw].sort((a, b) => Number(b[14]) - Number(a[14]) || Number(a[0]) - Number(b[0])).slice(0, 20);
    // Native names (outside knowledge), keyed by GeoNames id.
    const native: Record<string, string> = {
      1796236: "上海", 1816670: "北京", 1795565: "深圳", 1809858: "广州", 2332459: "Lagos", 745044: "İstanbul",
      1815286: "成都", 1275339: "मुंबई", 3448439: "São Paulo", 3530597: "Ciudad de México", 1174872: "کراچی",
      1792947: "天津", 1273294: "दिल्ली", 1791247: "武汉", 524901: "Москва", 1185241: "ঢাকা", 1835848: "서울",
      1812545: "东莞", 360630: "القاهرة", 1790630: "西安", 2314302: "Kinshasa", 1566083: "Thành phố Hồ Chí Minh",
      1172451: "لاہور",
    };
    for (const row of top) {
      const id = `gn:${row[0]}`;
      expect(first(row[1]!), `English ${row[1]}`).toBe(id);
      expect(native[row[0]!], `a native name for ${row[1]}`).toBeDefined();
      expect(first(native[row[0]!]!), `native ${native[row[0]!]}`).toBe(id);
    }
  });

  it("counts every match: total for a 3-letter prefix equals a scan of the raw file", () => {
    const q = "san";
    const expected = raw.filter((r) => [r[1]!, r[2]!, ...r[3]!.split(",")].some((n) => foldName(n).startsWith(q))).length;
    expect(data.search(q, 0, 0).total).toBe(expected);
  });

  it("takes a name that exists for no typo: total counts the places whose names are or begin with it", () => {
    // Pudong (Shanghai) and Seyhan (Adana): Yudong and Ceyhan are a typo away, and no name equals
    // or begins with "pudomg" or "seyhab", so those are found by their typos.
    for (const [q, id, typo] of [["pudong", "gn:1798524", "Pudomg"], ["seyhan", "gn:300997", "Seyhab"]] as const) {
      const expected = raw.filter((r) => [r[1]!, r[2]!, ...r[3]!.split(",")].some((n) => foldName(n).startsWith(q))).length;
      expect(data.search(q, 0, 0).total, q).toBe(expected);
      expect(raw.some((r) => [r[1]!, r[2]!, ...r[3]!.split(",")].some((n) => foldName(n).startsWith(foldName(typo)))), typo).toBe(false);
      expect(first(typo), typo).toBe(id);
    }
  });

  it("pages without repeating or skipping: pages of 7 equal one long list", () => {
    const all = data.search("san", 5000, 0);
    expect(all.places.length).toBe(Math.min(5000, all.total));
    const paged: number[] = [];
    for (let offset = 0; offset < all.places.length; offset += 7) paged.push(...data.search("san", 7, offset).places);
    expect(paged.slice(0, all.places.length)).toEqual(all.places);
    expect(new Set(paged).size).toBe(paged.length);
    expect(data.search("san", 10, all.total).places).toEqual([]);
    // A one-letter prefix matches more than a sixteenth of the gazetteer (another code path).
    const b = data.search("b", 400, 0);
    expect(b.total).toBeGreaterThan(data.index.placeCount / 16);
    const bPaged: number[] = [];
    for (let offset = 0; offset < 400; offset += 100) bPaged.push(...data.search("b", 100, offset).places);
    expect(bPaged).toEqual(b.places);
    expect(new Set(bPaged).size).toBe(400);
  });

  it("answers no match with total 0", () => {
    expect(data.search("qqqxqqq", 10, 0)).toEqual({ total: 0, places: [] });
    expect(data.search("!!!", 10, 0)).toEqual({ total: 0, places: [] });
  });
});

describe("administrative lookups", () => {
  it("knows Berlin's admin-1 area and Germany's CLDR names", () => {
    const berlin = data.placeByGeonameId(2950159)!;
    const input = data.administrativeInput(data.record(berlin));
    expect(input.admin1).toMatchObject({ code: "DE.16", geonameId: 2950157 });
    expect(input.country?.names.JA).toBe("ドイツ");
    expect(input.continent?.code).toBe("EU");
    expect(input.timezone).toBe("Europe/Berlin");
    expect(data.admin1("DE.16")?.geonameId).toBe(2950157);
    expect(data.country("DE")?.iso3).toBe("DEU");
    expect(data.continent("EU")?.names.EN).toBe("Europe");
    expect(data.country("ZZ")).toBeUndefined();
    expect(data.admin1("DE.99")).toBeUndefined();
  });

  it("leaves the admin-1 out where the 2023 dump names a code the 2025 admin1 file lacks", async () => {
    const gz = await fs.readFile(path.join(EMBEDDED_DIR, "geonames", "admin1CodesASCII.txt.gz"));
    const codes = new Set(gunzipSync(gz).toString("utf8").split("\n").map((l) => l.split("\t")[0]));
    const orphan = raw.find((r) => r[8] === "NO" && !codes.has(`NO.${r[10]}`))!;
    expect(orphan).toBeDefined();
    const place = data.placeByGeonameId(Number(orphan[0]))!;
    expect(data.point(place).address).toEqual(["Norway"]);
    expect(data.administrativeInput(data.record(place)).admin1).toBeUndefined();
    expect(data.administrativeInput(data.record(place)).country?.iso2).toBe("NO");
  });

  it("counts places per country and admin-1 as the raw file does", () => {
    const de = raw.filter((r) => r[8] === "DE").length;
    const berlinState = raw.filter((r) => r[8] === "DE" && r[10] === "16").length;
    expect(data.country("DE")?.placeCount).toBe(de);
    expect(data.admin1("DE.16")?.placeCount).toBe(berlinState);
  });
});
