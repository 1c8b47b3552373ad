// Several place dumps in one build: a later dump's row replaces an earlier row with the same
// GeoNames id. Expected values come from the raw fixture bytes (rows cut from the 2023 cities500
// and the 2025 cities15000) and from the embedded 2025 admin1CodesASCII, split here by hand.
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEnvelope } from "../../../datasets/artifact/envelope.ts";
import { DATASETS } from "../../../datasets/catalog.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { ConfigError } from "../../../datasets/common/errors.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { EMBEDDED_DIR, PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { PlacesIndex } from "../../../datasets/places/index-reader.ts";
import { memorySource } from "../../../datasets/common/byte-source.ts";
import { parsePlacesArgs, placesStep, PLACES_DUCKDB_FILE } from "../../../pipeline/places/step.ts";

const FIXTURES = path.join(PROJECT_ROOT, "test", "fixtures", "places");
const OLD = path.join(FIXTURES, "cities500-merge-excerpt.txt");
const NEW = path.join(FIXTURES, "cities15000-excerpt.txt");
const HCMC = 1566083;
const BERLIN = 2950159;

let dataDir: string;
let admin1Lines: Map<string, string[]>;
const ctx = () => ({ config: readConfig({ GEODATA_DATA_DIR: dataDir }), logger: silentLogger });
const base = [
  "--countries", path.join(EMBEDDED_DIR, "geonames", "countryInfo.txt.gz"),
  "--admin1", path.join(EMBEDDED_DIR, "geonames", "admin1CodesASCII.txt.gz"),
];

async function rawRows(file: string): Promise<Map<number, string[]>> {
  const rows = new Map<number, string[]>();
  for (const line of (await fs.readFile(file, "utf8")).split("\n")) if (line) rows.set(Number(line.split("\t")[0]), line.split("\t"));
  return rows;
}

async function build(places: string[]): Promise<{ index: PlacesIndex; metadata: ReturnType<typeof openEnvelope>["metadata"] }> {
  await placesStep.run([...base, ...places], ctx());
  const file = path.join(dataDir, DATASETS.places.file);
  const env = openEnvelope(await fs.readFile(file), { magic: DATASETS.places.magic, formatVersion: DATASETS.places.formatVersion, file });
  return { index: PlacesIndex.open(memorySource(env.payload), env.metadata, file), metadata: env.metadata };
}

async function dbRow(geonameId: number): Promise<unknown[]> {
  const db = await DuckDBInstance.create(path.join(dataDir, PLACES_DUCKDB_FILE));
  const conn = await db.connect();
  try {
    const rows = (await conn.runAndReadAll(`SELECT admin1_code, population, modification_date FROM places WHERE geonameid = ${geonameId}`)).getRows();
    return rows[0]!.map((v) => (typeof v === "bigint" ? Number(v) : v));
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "places-merge-"));
  const gz = await fs.readFile(path.join(EMBEDDED_DIR, "geonames", "admin1CodesASCII.txt.gz"));
  admin1Lines = new Map(gunzipSync(gz).toString("utf8").split("\n").filter(Boolean).map((l) => [l.split("\t")[0]!, l.split("\t")]));
});
afterAll(async () => {
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe("places step with several dumps", () => {
  it("takes repeated --places and comma lists, in order, and keeps the single form", () => {
    expect(parsePlacesArgs([...base, "--places", "a.zip"]).places).toEqual(["a.zip"]);
    expect(parsePlacesArgs([...base, "--places", "a.zip", "--places", "b.zip"]).places).toEqual(["a.zip", "b.zip"]);
    expect(parsePlacesArgs([...base, "--places", "a.zip,b.zip", "--places", "c.txt"]).places).toEqual(["a.zip", "b.zip", "c.txt"]);
    expect(() => parsePlacesArgs([...base, "--places", "a.zip,"])).toThrow(ConfigError);
    expect(() => parsePlacesArgs(base)).toThrow(/--places/);
  });

  it("builds the union of GeoNames ids; the later dump's row wins entirely", async () => {
    const oldRows = await rawRows(OLD);
    const newRows = await rawRows(NEW);
    const union = new Set([...oldRows.keys(), ...newRows.keys()]);
    const shared = [...oldRows.keys()].filter((id) => newRows.has(id)).length;
    expect(shared).toBe(2); // Ho Chi Minh City and Berlin are in both excerpts

    const { index, metadata } = await build(["--places", OLD, "--places", NEW]);
    expect(index.placeCount).toBe(union.size);
    expect(metadata.counts).toMatchObject({ places: union.size, placeDumps: 2, replaced: shared, malformed: 0 });
    expect(metadata.extra.placeDumps).toMatchObject([
      { name: "cities500-merge-excerpt.txt", rows: oldRows.size, kept: oldRows.size - shared, replaced: shared },
      { name: "cities15000-excerpt.txt", rows: newRows.size, kept: newRows.size, replaced: 0 },
    ]);
    const sourceNames = metadata.sources.map((s) => s.name);
    expect(sourceNames.slice(2, 4)).toEqual(["cities500-merge-excerpt.txt", "cities15000-excerpt.txt"]);
    // Each dump's date is the newest modification date (column 19) among its rows.
    const newest = (rows: Map<number, string[]>): string => [...rows.values()].map((r) => r[18]!).sort().at(-1)!;
    expect(metadata.sources[2]!.date).toBe(newest(oldRows));
    expect(metadata.sources[3]!.date).toBe(newest(newRows));

    // Ho Chi Minh City: VN.20 in the 2023 cities500 (since 2025 Lạng Sơn's code), VN.79 in the 2025 cities15000.
    expect(oldRows.get(HCMC)![10]).toBe("20");
    expect(newRows.get(HCMC)![10]).toBe("79");
    const hcmc = index.placeByGeonameId(HCMC)!;
    const admin1 = index.areas.admin1[index.record(hcmc).admin1!]!;
    expect(admin1.code).toBe("VN.79");
    expect(admin1.geonameId).toBe(Number(admin1Lines.get("VN.79")![3]));
    expect(admin1.name).toBe(admin1Lines.get("VN.79")![1]);
    expect(admin1.name).toMatch(/^Ho Chi Minh City/);
    const n = newRows.get(HCMC)!;
    expect(await dbRow(HCMC)).toEqual([n[10], Number(n[14]), n[18]]);
    expect(index.record(hcmc).population).toBe(Number(n[14]));
    // Berlin: same codes and population; the newer row's modification date shows which row won.
    const b = newRows.get(BERLIN)!;
    expect(await dbRow(BERLIN)).toEqual([b[10], Number(b[14]), b[18]]);
    expect(b[18]).not.toBe(oldRows.get(BERLIN)![18]);
    // Pimpri-Chinchwad is only in cities15000.
    expect(oldRows.has(7626690)).toBe(false);
    expect(index.record(index.placeByGeonameId(7626690)!).name).toBe(newRows.get(7626690)![1]);
  });

  it("lets the order decide: cities15000 then cities500 gives cities500's rows", async () => {
    const oldRows = await rawRows(OLD);
    const { index, metadata } = await build(["--places", `${NEW},${OLD}`]);
    expect(metadata.counts.replaced).toBe(2);
    const hcmc = index.placeByGeonameId(HCMC)!;
    // The 2023 code 20 is valid in the 2025 admin-1 file, but names another province: the defect
    // the dump order must avoid.
    expect(index.areas.admin1[index.record(hcmc).admin1!]!.name).toBe(admin1Lines.get("VN.20")![1]);
    const o = oldRows.get(HCMC)!;
    expect(await dbRow(HCMC)).toEqual([o[10], Number(o[14]), o[18]]);
  });

  it("counts admin-1 codes the admin1 file lacks per country, and gives those places no admin-1", async () => {
    const merged = new Map([...(await rawRows(OLD)), ...(await rawRows(NEW))]);
    const expected: Record<string, number> = {};
    for (const r of merged.values()) {
      if (r[10] !== "" && r[10] !== "00" && !admin1Lines.has(`${r[8]}.${r[10]}`)) expected[r[8]!] = (expected[r[8]!] ?? 0) + 1;
    }
    expect(expected).toEqual({ NO: 1 }); // Vadsø, NO.54 (Finnmark before Norway's county reform)
    const { index, metadata } = await build(["--places", OLD, "--places", NEW]);
    expect(metadata.extra.staleAdmin1ByCountry).toEqual(expected);
    expect(metadata.counts.staleAdmin1).toBe(1);
    expect(index.record(index.placeByGeonameId(777073)!).admin1).toBeUndefined();
  });

  it("given the same dump twice, replaces every row of the first and reports no malformed row", async () => {
    const { metadata } = await build(["--places", OLD, "--places", OLD]);
    expect(metadata.counts).toMatchObject({ malformed: 0, replaced: 3, places: 3 });
  });
});
