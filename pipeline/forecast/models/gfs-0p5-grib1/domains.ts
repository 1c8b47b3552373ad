/**
 * GFS 0.5 degree GRIB1 extracts made by zyGrib (NCEP parameter table 2): Iberia and the
 * north-east Atlantic (13 steps, 6-hourly to 72 h) and the western Mediterranean (wind and
 * pressure, 3-hourly to 192 h). zyGrib writes a wrong j increment (33.268) in the grid section:
 * the ingest derives the increment from the first and last latitudes instead.
 */
import { latLonGrid, range } from "../steps.ts";
import type { ModelDomain, ModelVariable } from "../types.ts";

function g1(name: string, aggregation: ModelVariable["aggregation"], parameter: number, levelType: number, levelValue: number, inv: string, level: string): ModelVariable {
  return { name, aggregation, grib1: { parameter, levelType, levelValue }, inventory: { name: inv, level } };
}

const U10 = g1("wind_u_10m", "instant", 33, 105, 10, "UGRD", "10 m above ground");
const V10 = g1("wind_v_10m", "instant", 34, 105, 10, "VGRD", "10 m above ground");
const MSL = g1("pressure_msl", "instant", 2, 102, 0, "PRMSL", "mean sea level");

export const GFS_IBERIA_GRIB1: ModelDomain = {
  id: "gfs-iberia-grib1",
  description: "NCEP GFS 0.5 degree GRIB1 extract (zyGrib), Iberia and north-east Atlantic, 2013-02-14 06Z",
  grid: latLonGrid(25, -30, 0.5, 0.5, 47, 85),
  runHours: [0, 6, 12, 18],
  steps: range(0, 72, 6),
  needsRun: false,
  files: () => [{ path: "gfs-0p5-zygrib-2013021406-f000-f072.grib1" }],
  variables: [
    g1("temperature_2m", "instant", 11, 105, 2, "TMP", "2 m above ground"),
    g1("relative_humidity_2m", "instant", 52, 105, 2, "RH", "2 m above ground"),
    U10,
    V10,
    g1("wind_gust", "instant", 180, 1, 0, "GUST", "surface"),
    MSL,
    g1("precipitation", "sum", 61, 1, 0, "APCP", "surface"),
    g1("cloud_cover", "mean", 71, 200, 0, "TCDC", "entire atmosphere (considered as a single layer)"),
  ],
};

export const GFS_MEDITERRANEAN_GRIB1: ModelDomain = {
  id: "gfs-mediterranean-grib1",
  description: "NCEP GFS 0.5 degree GRIB1 extract (zyGrib), western Mediterranean wind and pressure, 2013-03-11 06Z",
  grid: latLonGrid(37, 0, 0.5, 0.5, 15, 29),
  runHours: [0, 6, 12, 18],
  steps: range(0, 192, 3),
  needsRun: false,
  files: () => [{ path: "gfs-0p5-zygrib-2013031106-wind-mslp-f000-f192.grib1" }],
  variables: [U10, V10, MSL],
};
