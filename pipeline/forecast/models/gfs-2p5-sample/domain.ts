/**
 * The GFS 2.5 degree full-field sample files (pygrib's sample data, one step each from two runs:
 * 2011-10-08 00Z f072 and 2011-01-10 12Z f120). Their windowed fields cover the 6 hours before
 * the step (66-72, 114-120), so the nominal steps are 6-hourly. Total cloud is on level type 200
 * ("entire atmosphere (considered as a single layer)") in these older files.
 */
import { latLonGrid, range } from "../steps.ts";
import type { ModelDomain } from "../types.ts";
import { gfsVariables } from "../gfs/variables.ts";

export const GFS_2P5_SAMPLE: ModelDomain = {
  id: "gfs-2p5-sample",
  description: "NCEP GFS 2.5 degree sample steps (2011), all surface fields",
  grid: latLonGrid(-90, 0, 2.5, 2.5, 73, 144),
  runHours: [0, 6, 12, 18],
  steps: range(0, 384, 6),
  needsRun: false,
  files: () => [{ path: "gfs.2011100800.f072.2p5deg.grib2" }, { path: "gfs.2011011012.f120.2p5deg.grib2" }],
  variables: gfsVariables("2011"),
};
