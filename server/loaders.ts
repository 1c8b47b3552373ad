/**
 * One loader per dataset, where the service is assembled (server/service.ts, and the release
 * check the nightly runs, server/check-release.ts): the registry below it is generic, and each
 * domain folder knows only its own loader.
 */
import type { LoaderTable } from "./datasets/loader.ts";
import { loadElevation } from "./elevation/load.ts";
import type { LoadedDatasets } from "./endpoints/loaded-datasets.ts";
import { loadForecast } from "./forecast/load.ts";
import { loadPlaces } from "./places/load-places.ts";
import { loadAdmin } from "./reverse/load-admin.ts";
import { loadStations } from "./stations/load-stations.ts";

export const LOADERS: LoaderTable<LoadedDatasets> = {
  places: loadPlaces,
  admin: loadAdmin,
  elevation: loadElevation,
  stations: loadStations,
  forecast: loadForecast,
};
