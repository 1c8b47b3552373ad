/**
 * ECCC GDPS (GEM global) variables: one file per variable, level and step, named by the
 * `<VAR>_<LEVELTYPE>_<LEVEL>` token (`TMP_TGL_2` = temperature 2 m above ground). GRIB2 codes from
 * WMO table 4.2 (ECCC uses the standard entries); APCP accumulates from the forecast start (the
 * window logic differences it into per-step amounts); TCDC is in %.
 */
import type { Aggregation } from "../../../../datasets/forecast/types.ts";
import type { StatisticalProcess } from "../../../grib/types.ts";
import type { ModelVariable } from "../types.ts";

export interface CmcVariable {
  /** File name token. */
  token: string;
  variable: ModelVariable;
}

function cmcVar(
  token: string,
  name: string,
  aggregation: Aggregation,
  g2: [discipline: number, category: number, number: number, levelType: number, levelValue: number],
  inventory: [name: string, level: string],
  statistics?: StatisticalProcess[],
): CmcVariable {
  const [discipline, category, number, levelType, levelValue] = g2;
  const variable: ModelVariable = { name, aggregation, grib2: { discipline, category, number, levelType, levelValue }, inventory: { name: inventory[0], level: inventory[1] } };
  if (statistics) variable.grib2!.statistics = statistics;
  return { token, variable };
}

export const CMC_VARIABLES: readonly CmcVariable[] = [
  cmcVar("TMP_TGL_2", "temperature_2m", "instant", [0, 0, 0, 103, 2], ["TMP", "2 m above ground"], ["instant"]),
  cmcVar("RH_TGL_2", "relative_humidity_2m", "instant", [0, 1, 1, 103, 2], ["RH", "2 m above ground"], ["instant"]),
  cmcVar("UGRD_TGL_10", "wind_u_10m", "instant", [0, 2, 2, 103, 10], ["UGRD", "10 m above ground"], ["instant"]),
  cmcVar("VGRD_TGL_10", "wind_v_10m", "instant", [0, 2, 3, 103, 10], ["VGRD", "10 m above ground"], ["instant"]),
  cmcVar("GUST_TGL_10", "wind_gust", "instant", [0, 2, 22, 103, 10], ["GUST", "10 m above ground"], ["instant"]),
  cmcVar("PRMSL_MSL_0", "pressure_msl", "instant", [0, 3, 1, 101, 0], ["PRMSL", "mean sea level"], ["instant"]),
  cmcVar("APCP_SFC_0", "precipitation", "sum", [0, 1, 8, 1, 0], ["APCP", "surface"], ["accumulation"]),
  cmcVar("TCDC_SFC_0", "cloud_cover", "instant", [0, 6, 1, 1, 0], ["TCDC", "surface"], ["instant"]),
  cmcVar("TMP_ISBL_925", "temperature_925hPa", "instant", [0, 0, 0, 100, 92500], ["TMP", "925 mb"], ["instant"]),
  cmcVar("TMP_ISBL_850", "temperature_850hPa", "instant", [0, 0, 0, 100, 85000], ["TMP", "850 mb"], ["instant"]),
  cmcVar("HGT_SFC_0", "surface_height", "instant", [0, 3, 5, 1, 0], ["HGT", "surface"], ["instant"]),
];
