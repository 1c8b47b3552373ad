/**
 * NCEP GFS on NOMADS (and its AWS mirror, same layout): one directory per cycle,
 * `gfs.YYYYMMDD/HH/atmos/gfs.tHHz.pgrb2.<res>.fFFF`, each with a wgrib2 `.idx` beside it.
 * 0.25 degree: hourly to 120 h then 3-hourly to 384 h; 0.5 and 1.0 degree: 3-hourly to 384 h.
 */
import { globalDomain } from "../global-domain.ts";
import { pad, range } from "../steps.ts";
import type { ModelDomain } from "../types.ts";
import { gfsVariables } from "./variables.ts";

const NOMADS = "https://nomads.ncep.noaa.gov/pub/data/nccf/com/gfs/prod/";

function gfsDomain(id: string, res: "0p25" | "0p50" | "1p00", step: number, steps: number[]): ModelDomain {
  return globalDomain({
    id,
    description: `NCEP GFS ${res.replace("p", ".")} degree (pgrb2.${res}), 4 runs a day`,
    step,
    west: 0,
    runHours: [0, 6, 12, 18],
    steps,
    upstream: NOMADS,
    paths: ({ ymd, hh }, wanted) => wanted.map((h) => `gfs.${ymd}/${hh}/atmos/gfs.t${hh}z.pgrb2.${res}.f${pad(h, 3)}`),
    variables: gfsVariables("current"),
  });
}

export const GFS025 = gfsDomain("gfs025", "0p25", 0.25, [...range(0, 120, 1), ...range(123, 384, 3)]);
export const GFS050 = gfsDomain("gfs050", "0p50", 0.5, range(0, 384, 3));
export const GFS100 = gfsDomain("gfs100", "1p00", 1, range(0, 384, 3));
