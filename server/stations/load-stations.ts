/**
 * Loader of the stations dataset: opens stations/stations.idx where it lies (the envelope's
 * header, the id directories, the string table and the located stations; datasets/stations/
 * stations-file.ts). A request reads one station's answer or series block through the page cache,
 * so every worker on the machine shares the one copy the kernel keeps. DuckDB is the pipeline's:
 * the server never opens the database.
 */
import path from "node:path";
import { existsSync, statSync } from "node:fs";
import { DATASETS } from "../../datasets/catalog.ts";
import { DataFormatError, MissingInputError } from "../../datasets/common/errors.ts";
import { openStationsFile, type StationsIndex } from "../../datasets/stations/stations-file.ts";
import type { StationDirectory } from "../../datasets/stations/station-directory.ts";
import type { DatasetLoader } from "../datasets/loader.ts";
import { StationLocator } from "./station-locations.ts";
import { StationStore, type KnownStations, type SeriesByStation } from "./station-store.ts";

const known = (d: StationDirectory): KnownStations => ({ has: (id) => d.has(id), size: d.knownCount });
const series = (d: StationDirectory): SeriesByStation => ({ get: (id) => d.get(id), keys: () => d.reporting(), size: d.reportingCount, answer: (id) => d.answerOf(id) });

/** The handlers' store over an opened index (`file` names it in errors). */
export function storeOfIndex(index: StationsIndex, file: string): StationStore {
  const { METAR, SYNOP } = index.directories;
  return new StationStore({ METAR: known(METAR), SYNOP: known(SYNOP) }, { METAR: series(METAR), SYNOP: series(SYNOP) }, new StationLocator(index.located, index.directories, file));
}

/**
 * A database without stations.idx beside it is a release of format 1 (before the index): invalid,
 * saying so, rather than "not built".
 */
function openIndex(file: string, database: string): ReturnType<typeof openStationsFile> {
  try {
    return openStationsFile(file);
  } catch (err) {
    if (!(err instanceof MissingInputError) || !existsSync(database)) throw err;
    throw new DataFormatError({ file }, `${path.basename(file)} beside ${path.basename(database)} (format ${DATASETS.stations.formatVersion})`, "none: a release of an older format (run the stations step)");
  }
}

export const loadStations: DatasetLoader<StationStore> = async (ctx) => {
  const file = path.join(ctx.dataDir, ctx.spec.servedFile ?? ctx.spec.file);
  const { index, metadata } = openIndex(file, ctx.file);
  try {
    const store = storeOfIndex(index, file);
    return {
      value: store,
      metadata,
      facts: {
        knownStations: store.stationCount,
        reportingStations: store.reportingCount,
        observations: metadata.counts.observations,
        locatedStations: index.located.count,
        bytes: statSync(file).size,
      },
      close: () => index.close(),
    };
  } catch (err) {
    index.close();
    throw err;
  }
};
