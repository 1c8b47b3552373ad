/**
 * ECMWF IFS open data, 0.25 degree (`ecmwf-ifs-0p25`): one GRIB2 file per run and step,
 * `YYYYMMDD/HHz/ifs/0p25/oper/YYYYMMDDHH0000-<step>h-oper-fc.grib2`, each with a `.index` of JSON
 * lines (`_offset`/`_length` per field) fetched like the GFS `.idx`. Fields are CCSDS-packed
 * (GRIB2 5.42). Grid 1440 x 721 from 90N 180W. Runs 00/12 to 360 h (3-hourly to 144 h, then
 * 6-hourly); 06/18 runs are shorter and only the steps present are stored.
 * Licence: CC BY 4.0, attribution required.
 */
import { ECMWF_LICENCE } from "../../../../datasets/forecast/licences.ts";
import { globalDomain } from "../global-domain.ts";
import { range } from "../steps.ts";
import type { ModelDomain } from "../types.ts";
import { IFS_VARIABLES } from "./variables.ts";

export const ECMWF_IFS_0P25: ModelDomain = globalDomain({
  id: "ecmwf-ifs-0p25",
  description: "ECMWF IFS HRES open data 0.25 degree (oper), 4 runs a day",
  step: 0.25,
  west: -180,
  runHours: [0, 6, 12, 18],
  steps: [...range(0, 144, 3), ...range(150, 360, 6)],
  upstream: "https://data.ecmwf.int/forecasts/",
  inventoryFormat: "ecmwf-index",
  paths: ({ ymd, hh }, wanted) => wanted.map((h) => `${ymd}/${hh}z/ifs/0p25/oper/${ymd}${hh}0000-${h}h-oper-fc.grib2`),
  variables: [...IFS_VARIABLES],
  licence: ECMWF_LICENCE,
});
