/**
 * GFS sub-grids over Alaska and the Bering Sea (run 2011-09-02 06Z, one GRIB2 file): 0.5 degree
 * to 192 h (every 3 h) and 2.5 degree from 204 to 384 h (every 12 h), each cut in two sub-grids at
 * the 180th meridian (160-179.5 E and 180-200 E) that the ingest pastes into one domain grid.
 * The two resolutions are two domains: nothing is interpolated between them.
 */
import { latLonGrid, range } from "../steps.ts";
import type { ModelDomain } from "../types.ts";
import { gfsVariables, pickVariables } from "../gfs/variables.ts";

const FILE = "gfs-2011090206-alaska-subgrids-f000-f384.grib2";
const VARIABLES = pickVariables(gfsVariables("current"), ["temperature_2m", "relative_humidity_2m", "cloud_cover_convective"]);

export const GFS_ALASKA_0P5: ModelDomain = {
  id: "gfs-alaska-0p5",
  description: "NCEP GFS 0.5 degree sub-grid over Alaska, 2011-09-02 06Z, 0-192 h",
  grid: latLonGrid(55, 160, 0.5, 0.5, 29, 81),
  runHours: [0, 6, 12, 18],
  steps: range(0, 192, 3),
  needsRun: false,
  files: () => [{ path: FILE }],
  variables: VARIABLES,
};

export const GFS_ALASKA_2P5: ModelDomain = {
  id: "gfs-alaska-2p5",
  description: "NCEP GFS 2.5 degree sub-grid over Alaska, 2011-09-02 06Z, 204-384 h",
  grid: latLonGrid(55, 160, 2.5, 2.5, 6, 17),
  runHours: [0, 6, 12, 18],
  steps: range(204, 384, 12),
  needsRun: false,
  files: () => [{ path: FILE }],
  variables: VARIABLES,
};
