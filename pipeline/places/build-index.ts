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

/** The result's chunks as columns of values (cheaper than a JS array per row). */
async function* columnsOf(conn: DuckDBConnection, sql: string): AsyncGenerator<{ rows: number; columns: unknown[][] }> {
  const result = await conn.stream(sql);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) return;
    const columns: unknown[][] = [];
    for (let k = 0; k < chunk.columnCount; k++) columns.push(chunk.getColumnValues(k));
    yield { rows: chunk.rowCount, columns };
  }
}

export async function buildIndex(conn: DuckDBConnection, tables: PlacesTables, placeCount: number, typoCover: { places: number; alternates: number }, workDir: string, logger: Logger): Promise<{ writer: PlacesIndexWriter; fuzzyKeys: number }> {
  const writer = new PlacesIndexWriter(tables, workDir);
  const placeProgress = new Progress(logger, "index places", placeCount, "places");
  // The index's search order relies on rank = importance order; check it rather than trust it.
  let previousImportance = Infinity;
  let previousId = -1;
  for await (const { rows, columns } of columnsOf(conn, PLACES_IN_RANK_ORDER)) {
    const [ids, names, lats, lons, populations, countries, admin1s, features, timezones, importances] = columns as [number[], string[], number[], number[], bigint[], number[], number[], number[], number[], number[]];
    for (let i = 0; i < rows; i++) {
      const geonameId = ids[i]!;
      const importance = importances[i]!;
      if (importance > previousImportance || (importance === previousImportance && geonameId < previousId)) {
        throw new DataFormatError({ field: "places.rank" }, "places in descending importance, ties by ascending GeoNames id", `${geonameId} (${importance}) after ${previousId} (${previousImportance})`);
      }
      previousImportance = importance;
      previousId = geonameId;
      writer.addPlace({
        geonameId, name: names[i]!, lat: lats[i]!, lon: lons[i]!, population: Number(populations[i]!),
        country: countries[i]!, admin1: admin1s[i]!, feature: features[i]!, timezone: timezones[i]!,
      });
      placeProgress.tick();
    }
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
  for await (const { rows, columns } of columnsOf(conn, keyPostingsInByteOrder(typoCover.places, typoCover.alternates))) {
    const [keys, postingColumn, typoColumn] = columns as [string[], number[], boolean[]];
    for (let i = 0; i < rows; i++) {
      const key = keys[i]!;
      if (key !== current) {
        flush();
        current = key;
        postings = [];
        typo = false;
      }
      postings.push(postingColumn[i]!);
      typo ||= typoColumn[i]!;
    }
  }
  flush();
  keyProgress.finish();
  return { writer, fuzzyKeys };
}
