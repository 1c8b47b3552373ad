/**
 * Loader of the places dataset: reads places/places.idx, checks the envelope (magic, version,
 * length, CRC) and the section table, and builds the in-memory lookups. Throws on any fault; the
 * registry then answers 503 for the endpoints that need places.
 */
import { PlacesIndex } from "../../datasets/places/index-reader.ts";
import { readCheckedArtifact } from "../datasets/check-envelope.ts";
import type { DatasetLoader } from "../datasets/loader.ts";
import { PlacesData } from "./places-data.ts";
import { finishInSlices } from "../../datasets/common/work.ts";

export const loadPlaces: DatasetLoader<PlacesData> = async (ctx) => {
  const started = performance.now();
  const { value: payload, metadata } = await readCheckedArtifact(ctx);
  const index = PlacesIndex.from(payload, ctx.file);
  // In slices: a server opening a new release keeps answering meanwhile.
  const data = await finishInSlices(PlacesData.build(index));
  const loadMs = Math.round(performance.now() - started);
  if (data.unknownTimezones.length > 0) {
    ctx.logger.warn("timezones unknown to this runtime; places in them get a longitude-based Etc/GMT zone", { zones: data.unknownTimezones });
  }
  ctx.logger.info("places index loaded", { places: index.placeCount, keys: index.keyCount, bytes: payload.byteLength, loadMs });
  return {
    value: data,
    metadata,
    facts: {
      places: index.placeCount,
      keys: index.keyCount,
      fuzzyKeys: index.fuzzyKeys.length,
      countries: index.tables.countries.length,
      admin1: index.tables.admin1.length,
      indexBytes: payload.byteLength,
      loadMs,
    },
  };
};
