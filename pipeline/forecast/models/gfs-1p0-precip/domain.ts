/**
 * GFS 1 degree total precipitation series (2022-06-27, from THREDDS "TotalPrecip" extracts):
 * each step carries both the running total since the run start (0-N h) and the 6-hour bucket
 * (6-9, 6-12, ...). The 24-hour file holds the 00, 06, 12 and 18Z runs, the 48-hour file the 00Z run.
 */
import { latLonGrid, range } from "../steps.ts";
import type { ModelDomain } from "../types.ts";
import { gfsVariables, pickVariables } from "../gfs/variables.ts";

export const GFS_1P0_PRECIP: ModelDomain = {
  id: "gfs-1p0-precip",
  description: "NCEP GFS 1 degree total precipitation, 2022-06-27 runs, 3-hourly to 48 h",
  grid: latLonGrid(-90, 0, 1, 1, 181, 360),
  runHours: [0, 6, 12, 18],
  steps: range(0, 48, 3),
  needsRun: false,
  files: () => [{ path: "GFS_Global_onedeg_20220627_0000.TotalPrecip.Out48hrs.grib2" }, { path: "GFS_Global_onedeg_20220627.TotalPrecip.Out24hrs.grib2" }],
  variables: pickVariables(gfsVariables("current"), ["precipitation"]),
};
