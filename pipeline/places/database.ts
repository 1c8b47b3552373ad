/**
 * Loads the staging TSV files into the places DuckDB file (full records: countries, admin1,
 * places, names) and ranks the places. DuckDB sorts and groups out of core (memory_limit plus a
 * temp directory), which is what keeps the full allCountries build inside its memory budget.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { Logger } from "../../datasets/common/log.ts";
import type { Admin1Record } from "./admin1-codes.ts";
import type { CountryRecord } from "./country-info.ts";
import type { StagedPlaces } from "./stage-places.ts";
import { TsvWriter } from "./tsv-writer.ts";
import path from "node:path";

function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

function readTsv(file: string, columns: Record<string, string>): string {
  const cols = Object.entries(columns).map(([k, v]) => `${sqlString(k)}: ${sqlString(v)}`).join(", ");
  return `read_csv(${sqlString(file)}, delim='\\t', quote='', escape='', header=false, auto_detect=false, columns={${cols}})`;
}

export async function configureDuckdb(conn: DuckDBConnection, tempDir: string, memoryLimitMb: number, threads: number): Promise<void> {
  await conn.run(`SET memory_limit='${memoryLimitMb}MB'`);
  await conn.run(`SET threads=${Math.max(1, Math.floor(threads))}`);
  await conn.run(`SET temp_directory=${sqlString(tempDir)}`);
  await conn.run("SET preserve_insertion_order=false");
}

export async function loadDatabase(
  db: DuckDBConnection,
  staged: StagedPlaces,
  countries: readonly CountryRecord[],
  admin1: readonly Admin1Record[],
  stagingDir: string,
  logger: Logger,
): Promise<void> {
  // Each statement logged with its duration: the long ones are where a big build spends its time.
  const conn = {
    run: async (sql: string): Promise<void> => {
      const started = performance.now();
      await db.run(sql);
      // Written table data stays in memory until a checkpoint writes it to the file.
      if (/^CREATE TABLE/.test(sql)) await db.run("CHECKPOINT");
      logger.info("duckdb statement", { sql: sql.replace(/\s+/g, " ").slice(0, 80), elapsedS: Math.round((performance.now() - started) / 100) / 10 });
    },
  };
  const countriesTsv = new TsvWriter(path.join(stagingDir, "countries.tsv"));
  countries.forEach((c, i) => countriesTsv.add([c.iso2, c.iso3, c.name, c.capital, c.continent, c.population, c.geonameId, staged.countryCounts[i] ?? 0]));
  await countriesTsv.finish();
  const admin1Tsv = new TsvWriter(path.join(stagingDir, "admin1.tsv"));
  admin1.forEach((a, i) => admin1Tsv.add([a.code, a.name, a.asciiName, a.geonameId, staged.admin1Counts[i] ?? 0]));
  await admin1Tsv.finish();

  await conn.run(`CREATE TABLE countries AS SELECT * FROM ${readTsv(countriesTsv.path, {
    iso2: "VARCHAR", iso3: "VARCHAR", name: "VARCHAR", capital: "VARCHAR", continent: "VARCHAR",
    population: "BIGINT", geonameid: "UBIGINT", place_count: "UBIGINT",
  })}`);
  await conn.run(`CREATE TABLE admin1 AS SELECT * FROM ${readTsv(admin1Tsv.path, {
    code: "VARCHAR", name: "VARCHAR", asciiname: "VARCHAR", geonameid: "UBIGINT", place_count: "UBIGINT",
  })}`);
  await conn.run(`CREATE TABLE places_staged AS SELECT * FROM ${readTsv(staged.placesTsv, {
    geonameid: "UINTEGER", name: "VARCHAR", asciiname: "VARCHAR", latitude: "DOUBLE", longitude: "DOUBLE",
    feature_class: "VARCHAR", feature_code: "VARCHAR", country_code: "VARCHAR", cc2: "VARCHAR",
    admin1_code: "VARCHAR", admin2_code: "VARCHAR", admin3_code: "VARCHAR", admin4_code: "VARCHAR",
    population: "BIGINT", elevation: "VARCHAR", dem: "VARCHAR", timezone: "VARCHAR", modification_date: "VARCHAR",
    importance: "DOUBLE", country_index: "INTEGER", admin1_index: "INTEGER", feature_index: "INTEGER", timezone_index: "INTEGER",
  })}`);
  // rank: position in descending importance, ties by GeoNames id; it is the place's index in
  // places.idx. Computed on two narrow columns with a plain sort (which DuckDB spills to disk)
  // kept in order, so that the row id is the rank; a window over the wide rows would not spill.
  await conn.run("SET preserve_insertion_order=true");
  await conn.run("CREATE TABLE ranked AS SELECT geonameid FROM places_staged ORDER BY importance DESC, geonameid");
  await conn.run("SET preserve_insertion_order=false");
  await conn.run(`CREATE TABLE places AS SELECT s.*, CAST(r.rowid AS UINTEGER) AS rank
    FROM places_staged s JOIN ranked r USING (geonameid)`);
  await conn.run("DROP TABLE places_staged");
  await conn.run("DROP TABLE ranked");
  // Alternate names of features that are not in the place dump (e.g. alternateNamesV2 with cities500) are dropped.
  // Without alternateNamesV2 every name row comes from a kept place row: no join needed.
  const namesTsv = readTsv(staged.namesTsv, {
    geonameid: "UINTEGER", name: "VARCHAR", key: "VARCHAR", source: "VARCHAR", language: "VARCHAR",
    is_preferred: "BOOLEAN", is_short: "BOOLEAN", is_colloquial: "BOOLEAN", is_historic: "BOOLEAN", weak: "BOOLEAN",
  });
  await conn.run(staged.alternateNamesSource
    ? `CREATE TABLE names AS SELECT n.* FROM ${namesTsv} n SEMI JOIN places p ON n.geonameid = p.geonameid`
    : `CREATE TABLE names AS SELECT * FROM ${namesTsv}`);
}

/**
 * The cleaned gazetteer as published beside the artifacts for other tools (places/gazetteer.parquet
 * and .arrow, see datasets/places/FORMAT.md): every place kept, by GeoNames id.
 */
export const GAZETTEER_EXPORT = `SELECT geonameid, name, asciiname, latitude, longitude, feature_class, feature_code,
  country_code, cc2, admin1_code, admin2_code, admin3_code, admin4_code, population, elevation, dem, timezone,
  modification_date, importance, rank
  FROM places ORDER BY geonameid`;

/** Rows of the index's places section, in rank order. */
export const PLACES_IN_RANK_ORDER = `SELECT geonameid, name, latitude, longitude, population, country_index, admin1_index, feature_index, timezone_index, importance
  FROM places ORDER BY rank`;

/**
 * One row per (folded key, place), ordered by key bytes then posting: the posting (rank * 4 +
 * primary * 2 + weak; primary = the key is the place's name or ASCII name; weak = every source
 * giving that key for that place marks it historic, colloquial or a code) and whether the key
 * takes part in typo matching through this place: a primary name of a populated place or an area
 * among the `typoPlaces` most important places (this bounds the typo index of a full allCountries
 * build; cities500 is covered entirely), or a Latin-script alternate name (not weak) of a
 * populated place among the `typoAlternates` most important, of 6 or more characters ("New York", "Bangalore", "Juarez":
 * English exonyms and names in the place's own languages; other scripts are typed in their own
 * script and found exactly). The caller groups consecutive rows by key. A plain sort, with no list
 * aggregate, so that DuckDB can spill it to disk under its memory limit.
 */
export function keyPostingsInByteOrder(typoPlaces: number, typoAlternates: number): string {
  const limit = Math.max(0, Math.floor(typoPlaces));
  const alternates = Math.max(0, Math.floor(typoAlternates));
  return `SELECT n.key,
      CAST(p.rank * 4 + CASE WHEN bool_or(n.source IN ('name', 'asciiname')) THEN 2 ELSE 0 END
        + CASE WHEN bool_and(n.weak) THEN 1 ELSE 0 END AS UINTEGER) AS posting,
      bool_or((n.source IN ('name', 'asciiname') AND p.feature_class IN ('P', 'A') AND p.rank < ${limit})
        OR (n.source NOT IN ('name', 'asciiname') AND NOT n.weak AND p.feature_class = 'P' AND p.rank < ${alternates}
          AND length(n.key) >= 6 AND regexp_full_match(n.key, '[a-z0-9 ]+'))) AS typo
    FROM names n JOIN places p USING (geonameid)
    GROUP BY n.key, p.rank
    ORDER BY n.key, posting`;
}
