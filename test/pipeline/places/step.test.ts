import { promises as fs } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEnvelope } from "../../../datasets/artifact/envelope.ts";
import { DATASETS } from "../../../datasets/catalog.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { DataFormatError } from "../../../datasets/common/errors.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { PlacesIndex } from "../../../datasets/places/index-reader.ts";
import { memorySource } from "../../../datasets/common/byte-source.ts";
import { placesStep, PLACES_DUCKDB_FILE } from "../../../pipeline/places/step.ts";

const FIXTURES = path.join(PROJECT_ROOT, "test", "fixtures", "places");
const fixture = (name: string): string => path.join(FIXTURES, name);

let dataDir: string;
const ctx = () => ({ config: readConfig({ GEODATA_DATA_DIR: dataDir }), logger: silentLogger });
const args = (places: string, extra: string[] = []) => [
  "--countries", fixture("countryInfo-2019-excerpt.txt"),
  "--admin1", fixture("admin1CodesASCII-excerpt.txt"),
  "--places", fixture(places),
  ...extra,
];
const readIndex = async () => {
  const file = path.join(dataDir, DATASETS.places.file);
  const env = openEnvelope(await fs.readFile(file), { magic: "GEODPLCS", formatVersion: DATASETS.places.formatVersion, file });
  return { env, index: PlacesIndex.open(memorySource(env.payload), env.metadata, file) };
};

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "places-step-"));
});
afterAll(async () => {
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe("pipeline step places on real excerpts", () => {
  it("builds the index and the DuckDB file", async () => {
    await placesStep.run(args("cities500-excerpt.txt"), ctx());
    const { env, index } = await readIndex();
    expect(env.metadata.counts).toMatchObject({ places: 10, countries: 8, admin1: 10, malformed: 0 });
    expect(index.placeCount).toBe(10);
    // Rank order: the most important first: Tokyo and Moscow (capitals, millions) before Portland.
    const names = Array.from({ length: 10 }, (_, i) => index.record(i).name);
    expect(names.indexOf("Tokyo")).toBeLessThan(names.indexOf("Portland"));
    const berlin = index.placeByGeonameId(2950159)!;
    expect(index.record(berlin).name).toBe("Berlin");
    expect(index.areas.admin1[index.record(berlin).admin1!]).toMatchObject({ code: "DE.16", geonameId: 2950157, placeCount: 1 });
    const de = index.areas.countries.find((c) => c.iso2 === "DE")!;
    // CLDR: Germany is ドイツ in Japanese, Deutschland in German; GeoNames continent EU.
    expect(de.names.JA).toBe("ドイツ");
    expect(de.names.DE).toBe("Deutschland");
    expect(de).toMatchObject({ iso3: "DEU", geonameId: 2921044, capital: "Berlin", continentCode: "EU", placeCount: 1 });
    expect(index.areas.countries.find((c) => c.iso2 === "US")!.placeCount).toBe(3);

    const db = await DuckDBInstance.create(path.join(dataDir, PLACES_DUCKDB_FILE));
    const conn = await db.connect();
    try {
      const rows = (await conn.runAndReadAll("SELECT name, admin1_code, timezone FROM places WHERE geonameid = 4250542")).getRows();
      expect(rows).toEqual([["Springfield", "IL", "America/Chicago"]]);
      const names = (await conn.runAndReadAll("SELECT count(*) FROM names WHERE geonameid = 524901 AND name = 'Москва'")).getRows();
      expect(Number(names[0]![0])).toBe(1);
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  });

  it("fails on too many malformed rows, naming file and line, and keeps the previous artifact", async () => {
    const before = await fs.readFile(path.join(dataDir, DATASETS.places.file));
    const error = await placesStep.run(args("cities500-malformed.txt", ["--max-malformed", "2"]), ctx()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataFormatError);
    expect((error as DataFormatError).where).toEqual({ file: "cities500-malformed.txt", line: 11 });
    expect((error as Error).message).toMatch(/at most 2 malformed rows/);
    expect(await fs.readFile(path.join(dataDir, DATASETS.places.file))).toEqual(before);
  });

  it("skips malformed rows under the threshold and reports them in the metadata", async () => {
    await placesStep.run(args("cities500-malformed.txt", ["--max-malformed", "3"]), ctx());
    const { env, index } = await readIndex();
    expect(index.placeCount).toBe(8);
    expect(env.metadata.counts.malformed).toBe(3);
    const examples = env.metadata.extra.malformedExamples as { file: string; line: number }[];
    expect(examples.map((e) => e.line)).toEqual([9, 10, 11]);
  });

  it("reads its sources from URLs (downloaded once into the cache)", async () => {
    const server = http.createServer((req, res) => {
      const name = path.basename(req.url ?? "");
      fs.readFile(fixture(name)).then(
        (body) => res.writeHead(200, { "Content-Type": "text/plain" }).end(body),
        () => res.writeHead(404).end(),
      );
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await placesStep.run([
        "--countries", `${base}/countryInfo-2019-excerpt.txt`,
        "--admin1", `${base}/admin1CodesASCII-excerpt.txt`,
        "--places", `${base}/cities500-excerpt.txt`,
      ], ctx());
    } finally {
      server.close();
    }
    const { env, index } = await readIndex();
    expect(index.placeCount).toBe(10);
    expect(env.metadata.sources.map((s) => s.location)).toEqual([
      `${base}/countryInfo-2019-excerpt.txt`, `${base}/admin1CodesASCII-excerpt.txt`, `${base}/cities500-excerpt.txt`,
    ]);
  });

  it("refuses a missing input with the path", async () => {
    await expect(placesStep.run(args("no-such-file.txt"), ctx())).rejects.toThrow(/no-such-file\.txt/);
  });
});
