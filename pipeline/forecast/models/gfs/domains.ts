/**
 * NCEP GFS on NOMADS (and its AWS mirror, same layout): one directory per cycle,
 * `gfs.YYYYMMDD/HH/atmos/gfs.tHHz.pgrb2.<res>.fFFF`, each with a wgrib2 `.idx` beside it.
 * 0.25 degree: hourly to 120 h then 3-hourly to 384 h; 0.5 and 1.0 degree: 3-hourly to 384 h.
 */
import { latLonGrid, pad, range } from "../steps.ts";
import type { ModelDomain } from "../types.ts";
import { gfsVariables } from "./variables.ts";

const NOMADS = "https://nomads.ncep.noaa.gov/pub/data/nccf/com/gfs/prod/";

function gfsDomain(id: string, res: "0p25" | "0p50" | "1p00", step: number, steps: number[]): ModelDomain {
  const n = Math.round(360 / step);
  return {
    id,
    description: `NCEP GFS ${res.replace("p", ".")} degree (pgrb2.${res}), 4 runs a day`,
    grid: latLonGrid(-90, 0, step, step, Math.round(180 / step) + 1, n),
    runHours: [0, 6, 12, 18],
    steps,
    needsRun: true,
    upstream: NOMADS,
    files(run, wanted) {
      if (!run) throw new Error(`${id}: a run time is needed`);
      const ymd = `${run.getUTCFullYear()}${pad(run.getUTCMonth() + 1, 2)}${pad(run.getUTCDate(), 2)}`;
      const hh = pad(run.getUTCHours(), 2);
      return wanted.map((h) => ({ path: `gfs.${ymd}/${hh}/atmos/gfs.t${hh}z.pgrb2.${res}.f${pad(h, 3)}` }));
    },
    variables: gfsVariables("current"),
  };
}

export const GFS025 = gfsDomain("gfs025", "0p25", 0.25, [...range(0, 120, 1), ...range(123, 384, 3)]);
export const GFS050 = gfsDomain("gfs050", "0p50", 0.5, range(0, 384, 3));
export const GFS100 = gfsDomain("gfs100", "1p00", 1, range(0, 384, 3));
