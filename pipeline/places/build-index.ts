/**
 * Streams ranked places and grouped keys out of the DuckDB file into the search index writer.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { DataFormatError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { codePointLength } from "../../datasets/places/fold.ts";
import type { PlacesTables } from "../../datasets/places/index-format.ts";
import { PlacesIndexWriter } from "../../datasets/places/index-writer.ts";
import { Progress } from "../common/progress.ts";
import { keyPostingsInByteOrder, PLACES_IN_RANK_ORDER } from "./database.ts";

async function* rowsOf(conn: DuckDBConnection, sql: string): AsyncGenerator<unknown[]> {
  const result = await conn.stream(sql);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) return;
    for (const row of chunk.getRows()) yield row;
  }
}

export async function buildIndex(conn: DuckDBConnection, tables: PlacesTables, placeCount: number, typoPlaces: number, workDir: string, logger: Logger): Promise<{ writer: PlacesIndexWriter; fuzzyKeys: number }> {
  const writer = new PlacesIndexWriter(tables, workDir);
  const placeProgress = new Progress(logger, "index places", placeCount, "places");
  // The index's search order relies on rank = importance order; check it rather than trust it.
  let previous: { importance: number; geonameId: number } | undefined;
  for await (const row of rowsOf(conn, PLACES_IN_RANK_ORDER)) {
    const [geonameId, name, lat, lon, population, country, admin1, feature, timezone, importance] = row as [number, string, number, number, bigint, number, number, number, number, number];
    if (previous && (importance > previous.importance || (importance === previous.importance && geonameId < previous.geonameId))) {
      throw new DataFormatError({ field: "places.rank" }, "places in descending importance, ties by ascending GeoNames id", `${geonameId} (${importance}) after ${previous.geonameId} (${previous.importance})`);
    }
    previous = { importance, geonameId };
    writer.addPlace({ geonameId, name, lat, lon, population: Number(population), country, admin1, feature, timezone });
    placeProgress.tick();
  }
  placeProgress.finish();
  const keyProgress = new Progress(logger, "index names", undefined, "keys");
  let fuzzyKeys = 0;
  let current: string | undefined;
  let postings: number[] = [];
  let typo = false;
  const flush = (): void => {
    if (current === undefined) return;
    const fuzzy = typo && codePointLength(current) >= 3;
    if (fuzzy) fuzzyKeys++;
    writer.addKey(current, postings, fuzzy);
    keyProgress.tick();
  };
  for await (const row of rowsOf(conn, keyPostingsInByteOrder(typoPlaces))) {
    const [key, posting, typoHere] = row as [string, number, boolean];
    if (key !== current) {
      flush();
      current = key;
      postings = [];
      typo = false;
    }
    postings.push(posting);
    typo ||= typoHere;
  }
  flush();
  keyProgress.finish();
  return { writer, fuzzyKeys };
}
