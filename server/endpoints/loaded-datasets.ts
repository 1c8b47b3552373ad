/** What each dataset is in memory once loaded: what handlers receive (server/loaders.ts loads them). */
import type { AdminIndex } from "../../datasets/admin/admin-index.ts";
import type { ForecastStore } from "../../datasets/forecast/store.ts";
import type { ElevationStore } from "../elevation/elevation-store.ts";
import type { PlacesData } from "../places/places-data.ts";
import type { StationStore } from "../stations/station-store.ts";

export interface LoadedDatasets {
  places: PlacesData;
  admin: AdminIndex;
  elevation: ElevationStore;
  stations: StationStore;
  forecast: ForecastStore;
}
