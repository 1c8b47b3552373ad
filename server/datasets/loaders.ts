/**
 * One loader per dataset. The type of what each returns is what handlers receive.
 */
import type { DatasetName } from "../../datasets/catalog.ts";
import { loadElevation } from "../elevation/load.ts";
import { loadForecast } from "../forecast/load.ts";
import { loadPlaces } from "../places/load-places.ts";
import { loadAdmin } from "../reverse/load-admin.ts";
import type { DatasetLoader } from "./loader.ts";
import { loadStations } from "../stations/load-stations.ts";

export const LOADERS = {
  places: loadPlaces,
  admin: loadAdmin,
  elevation: loadElevation,
  stations: loadStations,
  forecast: loadForecast,
} satisfies Record<DatasetName, DatasetLoader<unknown>>;

export type Loaders = typeof LOADERS;

/** What each dataset is in memory once loaded. */
export type LoadedDatasets = { [K in DatasetName]: Awaited<ReturnType<Loaders[K]>>["value"] };
