/**
 * ECCC GDPS, the Canadian global GEM model (`cmc-gdps`), 0.15 degree lat/lon: one GRIB2 file per
 * variable and step, `HH/FFF/CMC_glb_<VAR>_<LEVELTYPE>_<LEVEL>_latlon.15x.15_YYYYMMDDHH_PFFF.grib2`
 * on the MSC Datamart tree (`model_gem_global/15km/grib2/lat_lon/`). No inventory: each file is
 * one field, fetched whole. JPEG 2000 packing (GRIB2 5.40). Runs 00 and 12 to 240 h, 3-hourly.
 * Licence: Environment and Climate Change Canada Data Servers End-use Licence.
 */
import { ECCC_LICENCE } from "../../../../datasets/forecast/licences.ts";
import { globalDomain } from "../global-domain.ts";
import { pad, range } from "../steps.ts";
import type { ModelDomain } from "../types.ts";
import { CMC_VARIABLES, type CmcVariable } from "./variables.ts";

/**
 * A GDPS lat/lon domain: `res` is the file name's grid token ("15x.15" today; the 25 km grid of
 * earlier years was "24x.24"), `step` its increment, `variables` the variables to fetch.
 */
export function cmcGdpsDomain(id: string, res: string, step: number, variables: readonly CmcVariable[], upstream?: string): ModelDomain {
  return globalDomain({
    id,
    description: `ECCC GDPS (GEM global) ${step} degree lat/lon, 2 runs a day`,
    step,
    west: -180,
    runHours: [0, 12],
    steps: range(0, 240, 3),
    ...(upstream ? { upstream } : {}),
    paths: ({ ymd, hh }, wanted) => wanted.flatMap((h) => variables.map((c) => `${hh}/${pad(h, 3)}/CMC_glb_${c.token}_latlon.${res}_${ymd}${hh}_P${pad(h, 3)}.grib2`)),
    variables: variables.map((c) => c.variable),
    licence: ECCC_LICENCE,
  });
}

export const CMC_GDPS: ModelDomain = cmcGdpsDomain("cmc-gdps", "15x.15", 0.15, CMC_VARIABLES, "https://dd.weather.gc.ca/model_gem_global/15km/grib2/lat_lon/");
