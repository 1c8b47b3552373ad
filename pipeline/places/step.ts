/**
 * Pipeline step `places`: GeoNames countryInfo + admin1CodesASCII + place dumps (+ optional
 * alternateNamesV2) → `places/places.duckdb` (full records) and `places/places.idx` (the search
 * index the server loads; datasets/places/FORMAT.md). Both are published only after the whole
 * build succeeded; a failure leaves the previous artifacts serving.
 */
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { DATASETS } from "../../datasets/catalog.ts";
import { ConfigError, DataFormatError } from "../../datasets/common/errors.ts";
import { EMBEDDED_DIR } from "../../datasets/common/paths.ts";
import { writeDuckdbMeta } from "../../datasets/artifact/duckdb-meta.ts";
import { describeSourceFile } from "../../datasets/artifact/source-info.ts";
import type { SourceInfo } from "../../datasets/artifact/envelope.ts";
import { type PipelineStep, type StepContext, cacheDirOf } from "../common/step.ts";
import { buildIndex } from "./build-index.ts";
import { publishIndex } from "./publish-index.ts";
import type { WrittenPayload } from "../../datasets/places/index-writer.ts";
import { loadCldrNames } from "./cldr-names.ts";
import { configureDuckdb, GAZETTEER_EXPORT, loadDatabase } from "./database.ts";
import { exportTable } from "../common/table-export.ts";
import { MalformedRows } from "./malformed.ts";
import { readAdmin1Codes, readAdmin2Codes, readCountryInfo } from "./read-tables.ts";
import { stagePlaces } from "./stage-places.ts";
import { buildTables } from "./tables.ts";
import { readSubdivisionCodes } from "./subdivision-codes.ts";
import { StepOptions } from "../common/options.ts";
import { foldName } from "../../datasets/places/fold.ts";

export const PLACES_DUCKDB_FILE = "places/places.duckdb";
/** Same magic as the index: the DuckDB file is the index's companion. */
const DUCKDB_FORMAT_VERSION = 1;

export interface PlacesArgs {
  countries: string;
  admin1: string;
  /** Place dumps in order: a later dump's row replaces an earlier one with the same GeoNames id. */
  places: string[];
  alternateNames?: string;
  /** Natural Earth admin-1 GeoJSON, for ISO 3166-2 codes and names as qualifiers. */
  subdivisions?: string;
  /** GeoNames admin2Codes.txt: county and district names as qualifiers of their admin-1 area. */
  admin2?: string;
  maxMalformed: number;
  memoryLimitMb: number;
  duckdbThreads: number;
  typoPlaces: number;
  typoAlternates: number;
}

const USAGE = `Options:
  --countries <path|url>        GeoNames countryInfo.txt (leading # comment block allowed)
  --admin1 <path|url>           GeoNames admin1CodesASCII.txt
  --places <path|url>[,...]     a place dump: cities500, cities15000 or allCountries (.txt, .zip or .gz);
                                repeat the option or give a comma list for several dumps, oldest first:
                                a later dump's row replaces an earlier row with the same GeoNames id
  --alternate-names <path|url>  optional alternateNamesV2.txt (.txt, .zip or .gz)
  --admin2 <path|url>           optional GeoNames admin2Codes.txt: county and district names qualify their admin-1 area
  --subdivisions <path|url>     optional Natural Earth admin-1 GeoJSON (.geojson or .gz): its ISO 3166-2
                                codes (CA-ON, ON; AU-NSW, NSW) and names (local, alternate, 26 languages;
                                counties and provinces name their admin-1 area) become admin-1 qualifiers
  --max-malformed <n>           malformed rows tolerated over all files (default 1000); one more fails the build
  --memory-limit-mb <n>         DuckDB memory limit while sorting and grouping (default 512); DuckDB spills
                                to a temporary directory beyond it
  --duckdb-threads <n>          DuckDB worker threads (default 2; each needs its own buffers: with 1 thread
                                cities500 builds under a 96 MB limit)
  --typo-places <n>             typo matching covers the main names of the n most important places
                                (default 500000: all of cities500; bounds the index of allCountries)
  --typo-alternates <n>         and the Latin-script alternate names of the n most important populated places
                                (default 4000: New York, Bangalore, Juarez)
Writes places/places.idx and places/places.duckdb under GEODATA_DATA_DIR.`;

export function parsePlacesArgs(args: readonly string[]): PlacesArgs {
  const options = new StepOptions("places", args, ["countries", "admin1", "places", "alternate-names", "subdivisions", "admin2", "max-malformed", "memory-limit-mb", "duckdb-threads", "typo-places", "typo-alternates"]);
  const places: string[] = [];
  for (const value of options.all("places")) {
    const parts = value.split(",");
    if (parts.some((x) => x === "")) throw new ConfigError("--places", "a path or URL, or a comma list of them", value);
    places.push(...parts);
  }
  if (places.length === 0) throw new ConfigError("--places", "a path or URL", "nothing");
  const alternateNames = options.get("alternate-names");
  const subdivisions = options.get("subdivisions");
  const admin2 = options.get("admin2");
  return {
    countries: options.required("countries"),
    admin1: options.required("admin1"),
    places,
    ...(alternateNames ? { alternateNames } : {}),
    ...(subdivisions ? { subdivisions } : {}),
    ...(admin2 ? { admin2 } : {}),
    maxMalformed: options.int("max-malformed", 1000, 0, 1_000_000_000),
    memoryLimitMb: options.int("memory-limit-mb", 512, 64, 1_048_576),
    duckdbThreads: options.int("duckdb-threads", 2, 1, 256),
    typoPlaces: options.int("typo-places", 500_000, 0, 4_294_967_295),
    typoAlternates: options.int("typo-alternates", 4000, 0, 4_294_967_295),
  };
}

export async function runPlaces(a: PlacesArgs, ctx: StepContext): Promise<void> {
  const { config, logger } = ctx;
  const spec = DATASETS.places;
  const finalIndex = path.join(config.dataDir, spec.file);
  const finalDb = path.join(config.dataDir, PLACES_DUCKDB_FILE);
  const workDir = path.join(path.dirname(finalIndex), `.build-${process.pid}-${randomBytes(4).toString("hex")}`);
  await fs.mkdir(workDir, { recursive: true });
  const sourceOptions = { cacheDir: cacheDirOf(ctx, "downloads"), logger };
  const malformed = new MalformedRows(logger, a.maxMalformed);
  try {
    const countries = await readCountryInfo(a.countries, sourceOptions, malformed);
    const admin1 = await readAdmin1Codes(a.admin1, sourceOptions, malformed);
    logger.info("tables read", { countries: countries.rows.length, admin1: admin1.rows.length });
    const cldr = loadCldrNames();
    const aliasTargets = new Map<number, { kind: "country" | "admin1"; index: number }>();
    countries.rows.forEach((c, index) => aliasTargets.set(c.geonameId, { kind: "country", index }));
    admin1.rows.forEach((r, index) => aliasTargets.set(r.geonameId, { kind: "admin1", index }));
    const staged = await stagePlaces({
      placesLocations: a.places,
      ...(a.alternateNames ? { alternateNamesLocation: a.alternateNames } : {}),
      sourceOptions,
      countryIndex: new Map(countries.rows.map((c, i) => [c.iso2, i])),
      admin1Index: new Map(admin1.rows.map((r, i) => [r.code, i])),
      aliasTargets,
      stagingDir: workDir,
      malformed,
      logger,
    });
    if (staged.places === 0) throw new DataFormatError({ file: staged.dumps.map((d) => d.displayName).join(", ") }, "at least one place", "none");
    const subdivisions = a.subdivisions
      ? await readSubdivisionCodes(a.subdivisions, sourceOptions, {
        admin1Index: new Map(admin1.rows.map((r, i) => [r.code, i])),
        admin2ToAdmin1: staged.admin2ToAdmin1,
        admin1ByName: new Map(admin1.rows.flatMap((r, i) => [[`${r.code.slice(0, 2)} ${foldName(r.name)}`, i], [`${r.code.slice(0, 2)} ${foldName(r.asciiName)}`, i]] as const)),
      })
      : undefined;
    if (subdivisions) logger.info("subdivision codes read", { features: subdivisions.features, matched: subdivisions.aliases.length });
    const admin2 = a.admin2 ? await readAdmin2Codes(a.admin2, sourceOptions, malformed) : undefined;
    const admin1Index = new Map(admin1.rows.map((r, i) => [r.code, i]));
    const counties = (admin2?.rows ?? []).flatMap((r) => {
      const index = admin1Index.get(r.admin1);
      return index === undefined ? [] : [{ index, names: [r.name, r.asciiName] }];
    });
    if (admin2) logger.info("admin-2 names read", { rows: admin2.rows.length, matched: counties.length });
    const tables = buildTables(countries.rows, admin1.rows, cldr, staged, [...(subdivisions?.aliases ?? []), ...counties]);

    const dbTmp = path.join(workDir, "places.duckdb");
    const instance = await DuckDBInstance.create(dbTmp);
    const conn = await instance.connect();
    let payload: WrittenPayload;
    let keyCount: number;
    let fuzzyKeys: number;
    let nameRows: number;
    let newest: string | undefined;
    try {
      await configureDuckdb(conn, path.join(workDir, "duckdb-tmp"), a.memoryLimitMb, a.duckdbThreads);
      await loadDatabase(conn, staged, countries.rows, admin1.rows, workDir, logger);
      const built = await buildIndex(conn, tables, staged.places, { places: a.typoPlaces, alternates: a.typoAlternates }, workDir, logger);
      if (built.writer.placeCount !== staged.places) {
        throw new DataFormatError({ file: dbTmp, field: "places" }, `${staged.places} places`, `${built.writer.placeCount}`);
      }
      keyCount = built.writer.keyCount;
      fuzzyKeys = built.fuzzyKeys;
      let started = performance.now();
      payload = built.writer.finish(path.join(workDir, "places.idx.payload"));
      logger.info("index payload written", { bytes: payload.bytes, elapsedS: seconds(started) });
      nameRows = Number((await conn.runAndReadAll("SELECT count(*) FROM names")).getRows()[0]![0]);
      const maxDate = (await conn.runAndReadAll("SELECT max(modification_date) FROM places")).getRows()[0]![0];
      newest = typeof maxDate === "string" ? maxDate : undefined;
      const sources = await describeSources(a, countries, admin1, staged, admin2);
      const counts = {
        places: staged.places,
        names: nameRows,
        keys: keyCount,
        fuzzyKeys,
        countries: countries.rows.length,
        admin1: admin1.rows.length,
        malformed: malformed.total,
        withoutCountry: staged.withoutCountry,
        unknownCountry: staged.unknownCountry,
        placeDumps: staged.dumps.length,
        replaced: staged.replaced,
        staleAdmin1: staged.staleAdmin1,
        admin1Unassigned: staged.admin1Unassigned,
      };
      const extra = {
        malformedByFile: malformed.counts(),
        malformedExamples: malformed.examples,
        cldrVersion: cldr.cldrVersion,
        alternateNameRows: staged.alternateNameRows,
        qualifiers: tables.qualifiers.length,
        newestPlace: newest,
        placeDumps: staged.dumps.map((d) => ({ name: d.displayName, rows: d.rows, kept: d.kept, replaced: d.replaced, newest: d.newest })),
        staleAdmin1ByCountry: staged.staleAdmin1ByCountry,
      };
      await writeDuckdbMeta(conn, { magic: spec.magic, formatVersion: DUCKDB_FORMAT_VERSION, kind: "places-db", sources, counts, extra });
      await conn.run("CHECKPOINT");
      // The cleaned gazetteer for other tools, beside the artifacts (FORMAT.md).
      started = performance.now();
      await exportTable(conn, GAZETTEER_EXPORT, path.join(path.dirname(finalIndex), "gazetteer"));
      logger.info("gazetteer exported", { elapsedS: seconds(started) });
      conn.closeSync();
      instance.closeSync();
      await fs.mkdir(path.dirname(finalDb), { recursive: true });
      await fs.rename(dbTmp, finalDb);
      const bytes = await publishIndex(finalIndex, { magic: spec.magic, formatVersion: spec.formatVersion, kind: "places", sources, counts, extra }, payload);
      logger.info("places built", { ...counts, indexBytes: bytes, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) });
    } finally {
      try {
        conn.closeSync();
        instance.closeSync();
      } catch {
        // already closed after a successful build
      }
    }
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}

function seconds(since: number): number {
  return Math.round((performance.now() - since) / 100) / 10;
}

async function describeSources(
  a: PlacesArgs,
  countries: { displayName: string; localPath: string },
  admin1: { displayName: string; localPath: string },
  staged: Awaited<ReturnType<typeof stagePlaces>>,
  admin2?: { displayName: string; localPath: string },
): Promise<SourceInfo[]> {
  const out: SourceInfo[] = [];
  const one = async (location: string, local: string, name: string, date?: string): Promise<void> => {
    const info = await describeSourceFile(local, name, date);
    if (/^https?:\/\//i.test(location)) info.location = location;
    out.push(info);
  };
  await one(a.countries, countries.localPath, countries.displayName);
  await one(a.admin1, admin1.localPath, admin1.displayName);
  // One source per dump, in the order given; its date is the newest modification date in its rows.
  for (const d of staged.dumps) await one(d.location, d.localPath, d.displayName, d.newest);
  if (a.alternateNames && staged.alternateNamesSource) {
    await one(a.alternateNames, staged.alternateNamesSource.localPath, staged.alternateNamesSource.displayName);
  }
  if (a.admin2 && admin2) await one(a.admin2, admin2.localPath, admin2.displayName);
  if (a.subdivisions) {
    if (/^https?:\/\//i.test(a.subdivisions)) out.push({ name: path.basename(new URL(a.subdivisions).pathname), location: a.subdivisions });
    else await one(a.subdivisions, a.subdivisions, path.basename(a.subdivisions));
  }
  return out;
}

const EMBEDDED = path.join(EMBEDDED_DIR, "geonames");
const EMBEDDED_FILES = {
  countries: path.join(EMBEDDED, "countryInfo.txt.gz"),
  admin1: path.join(EMBEDDED, "admin1CodesASCII.txt.gz"),
  places: path.join(EMBEDDED, "cities500.zip"),
  /** The 2025 cities15000, after cities500 (2023): its rows win, with admin-1 codes that match the 2025 admin1 file. */
  placesNewer: path.join(EMBEDDED, "cities15000.zip"),
  /** Codes and names of Natural Earth admin-1 (no geometry; pipeline/places/extract-subdivision-names.ts). */
  subdivisions: path.join(EMBEDDED_DIR, "naturalearth", "ne_10m_admin_1_names.geojson.gz"),
};

export const placesStep: PipelineStep = {
  name: "places",
  summary: "GeoNames places → search index (places/places.idx) and DuckDB records (places/places.duckdb).",
  usage: USAGE,
  codeVersion: 3,
  embeddedDefault: {
    inputs: () => Object.values(EMBEDDED_FILES),
    args: () => [
      "--countries", EMBEDDED_FILES.countries, "--admin1", EMBEDDED_FILES.admin1, "--places", EMBEDDED_FILES.places,
      "--places", EMBEDDED_FILES.placesNewer,
      "--subdivisions", EMBEDDED_FILES.subdivisions,
    ],
  },
  run: (args, ctx) => runPlaces(parsePlacesArgs(args), ctx),
};
