/**
 * ECMWF IFS open data parameters mapped to our vocabulary. GRIB2 codes as ecCodes writes them
 * (ECMWF's local entries: tcc 0/6/192 in fraction 0-1 on "surface - top of atmosphere"); the
 * inventory names are the `.index` `param` short names and `levtype` ("sfc", or "850 pl").
 * Units: tp is metres of water from the forecast start (x1000 = kg m-2, then differenced into
 * per-step amounts by the window logic), cloud cover a fraction (x100 = %).
 */
import type { Aggregation } from "../../../../datasets/forecast/types.ts";
import type { StatisticalProcess } from "../../../grib/types.ts";
import type { ModelVariable } from "../types.ts";

function ifsVar(
  name: string,
  aggregation: Aggregation,
  g2: [discipline: number, category: number, number: number, levelType: number, levelValue: number],
  inventory: [param: string, levtype: string],
  statistics: StatisticalProcess[],
  factor?: number,
): ModelVariable {
  const [discipline, category, number, levelType, levelValue] = g2;
  const v: ModelVariable = { name, aggregation, grib2: { discipline, category, number, levelType, levelValue, statistics }, inventory: { name: inventory[0], level: inventory[1] } };
  if (factor !== undefined) v.factor = factor;
  return v;
}

export const IFS_VARIABLES: readonly ModelVariable[] = [
  ifsVar("temperature_2m", "instant", [0, 0, 0, 103, 2], ["2t", "sfc"], ["instant"]),
  ifsVar("temperature_2m_max", "max", [0, 0, 0, 103, 2], ["mx2t3", "sfc"], ["maximum"]),
  ifsVar("temperature_2m_max", "max", [0, 0, 0, 103, 2], ["mx2t6", "sfc"], ["maximum"]),
  ifsVar("temperature_2m_min", "min", [0, 0, 0, 103, 2], ["mn2t3", "sfc"], ["minimum"]),
  ifsVar("temperature_2m_min", "min", [0, 0, 0, 103, 2], ["mn2t6", "sfc"], ["minimum"]),
  ifsVar("wind_u_10m", "instant", [0, 2, 2, 103, 10], ["10u", "sfc"], ["instant"]),
  ifsVar("wind_v_10m", "instant", [0, 2, 3, 103, 10], ["10v", "sfc"], ["instant"]),
  ifsVar("wind_gust", "max", [0, 2, 22, 103, 10], ["10fg", "sfc"], ["maximum"]),
  ifsVar("pressure_msl", "instant", [0, 3, 0, 101, 0], ["msl", "sfc"], ["instant"]),
  ifsVar("precipitation", "sum", [0, 1, 8, 1, 0], ["tp", "sfc"], ["accumulation"], 1000),
  ifsVar("cloud_cover", "instant", [0, 6, 192, 1, 0], ["tcc", "sfc"], ["instant"], 100),
  ifsVar("temperature_925hPa", "instant", [0, 0, 0, 100, 92500], ["t", "925 pl"], ["instant"]),
  ifsVar("temperature_850hPa", "instant", [0, 0, 0, 100, 85000], ["t", "850 pl"], ["instant"]),
];
