/**
 * Loader of the places dataset: opens places/places.idx where it lies (the envelope's header, the
 * section table and the index's small parts; datasets/places/index-reader.ts). Searches read the
 * rest through the page cache, so every worker on the machine shares the one copy the kernel
 * keeps. A damaged or foreign file throws; the registry then answers 503 for the endpoints that
 * need places.
 */
import { statSync } from "node:fs";
import { openPlacesFile } from "../../datasets/places/index-reader.ts";
import type { DatasetLoader } from "../datasets/loader.ts";
import { PlacesData } from "./places-data.ts";

export const loadPlaces: DatasetLoader<PlacesData> = async (ctx) => {
  const started = performance.now();
  const { index, metadata } = openPlacesFile(ctx.file);
  let data: PlacesData;
  try {
    data = new PlacesData(index);
  } catch (err) {
    index.close();
    throw err;
  }
  const loadMs = Math.round(performance.now() - started);
  if (data.unknownTimezones.length > 0) {
    ctx.logger.warn("timezones unknown to this runtime; places in them get a longitude-based Etc/GMT zone", { zones: data.unknownTimezones });
  }
  const bytes = statSync(ctx.file).size;
  ctx.logger.info("places index opened", { places: index.placeCount, keys: index.keyCount, bytes, loadMs });
  return {
    value: data,
    metadata,
    facts: {
      places: index.placeCount,
      keys: index.keyCount,
      fuzzyKeys: index.typoKeyCount,
      countries: index.areas.countries.length,
      admin1: index.areas.admin1.length,
      indexBytes: bytes,
      loadMs,
    },
    close: () => index.close(),
  };
};
