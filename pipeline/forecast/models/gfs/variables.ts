/**
 * GFS variables in the NCEP products (pgrb2 0.25/0.5/1.0 and the older 2.5 degree files):
 * GRIB2 discipline/category/number from WMO code table 4.2 with NCEP's local entries (LFTX
 * 0/7/192, HPBL 0/3/196), level types from code table 4.5 (NCEP local 211-244 for cloud layers),
 * wgrib2 inventory names as in NOMADS .idx files.
 */
import type { Aggregation } from "../../../../datasets/forecast/types.ts";
import type { StatisticalProcess } from "../../../grib/types.ts";
import type { ModelVariable } from "../types.ts";

function gfsVar(
  name: string,
  aggregation: Aggregation,
  g2: [discipline: number, category: number, number: number, levelType: number, levelValue: number],
  inventory: [name: string, level: string],
  statistics?: StatisticalProcess[],
): ModelVariable {
  const [discipline, category, number, levelType, levelValue] = g2;
  const v: ModelVariable = {
    name,
    aggregation,
    grib2: { discipline, category, number, levelType, levelValue },
    inventory: { name: inventory[0], level: inventory[1] },
  };
  if (statistics) v.grib2!.statistics = statistics;
  return v;
}

/**
 * GFS variables; entries sharing a name are alternatives in order of preference (the first with
 * data in a run is stored). `current`: the GFS v16 products, where total cloud is on "entire
 * atmosphere" (level type 10) and the low/middle/high layers are LCDC/MCDC/HCDC (0/6/3-5), each
 * both instantaneous and averaged over the 6-hour bucket windows: the instantaneous value is
 * preferred, the average (then older GFS's TCDC on the layer) taken when it is all there is.
 * `2011`: the older products of the 2.5 degree samples, TCDC averages on every layer and total
 * cloud on level type 200 ("entire atmosphere (considered as a single layer)").
 */
export function gfsVariables(generation: "current" | "2011" = "current"): ModelVariable[] {
  const common = [
    gfsVar("temperature_2m", "instant", [0, 0, 0, 103, 2], ["TMP", "2 m above ground"], ["instant"]),
    // The 2011 files encode TMAX/TMIN with statistical process 255 (missing): accept "other".
    gfsVar("temperature_2m_max", "max", [0, 0, 4, 103, 2], ["TMAX", "2 m above ground"], ["maximum", "other"]),
    gfsVar("temperature_2m_min", "min", [0, 0, 5, 103, 2], ["TMIN", "2 m above ground"], ["minimum", "other"]),
    gfsVar("relative_humidity_2m", "instant", [0, 1, 1, 103, 2], ["RH", "2 m above ground"], ["instant"]),
    gfsVar("wind_u_10m", "instant", [0, 2, 2, 103, 10], ["UGRD", "10 m above ground"], ["instant"]),
    gfsVar("wind_v_10m", "instant", [0, 2, 3, 103, 10], ["VGRD", "10 m above ground"], ["instant"]),
    gfsVar("wind_gust", "instant", [0, 2, 22, 1, 0], ["GUST", "surface"], ["instant"]),
    gfsVar("pressure_msl", "instant", [0, 3, 1, 101, 0], ["PRMSL", "mean sea level"], ["instant"]),
    gfsVar("precipitation", "sum", [0, 1, 8, 1, 0], ["APCP", "surface"], ["accumulation"]),
    gfsVar("precipitation_convective", "sum", [0, 1, 10, 1, 0], ["ACPCP", "surface"], ["accumulation"]),
  ];
  const layer = (name: string, number: number, inv: string, level: number, levelName: string): ModelVariable[] => [
    gfsVar(name, "instant", [0, 6, number, level, 0], [inv, levelName], ["instant"]),
    gfsVar(name, "mean", [0, 6, number, level, 0], [inv, levelName], ["average"]),
    ...(number !== 1 ? [gfsVar(name, "mean", [0, 6, 1, level, 0], ["TCDC", levelName], ["average"])] : []),
  ];
  const clouds =
    generation === "current"
      ? [
          ...layer("cloud_cover", 1, "TCDC", 10, "entire atmosphere"),
          ...layer("cloud_cover_high", 5, "HCDC", 234, "high cloud layer"),
          ...layer("cloud_cover_mid", 4, "MCDC", 224, "middle cloud layer"),
          ...layer("cloud_cover_low", 3, "LCDC", 214, "low cloud layer"),
          gfsVar("cloud_cover_convective", "instant", [0, 6, 1, 244, 0], ["TCDC", "convective cloud layer"], ["instant"]),
          ...layer("cloud_cover_boundary_layer", 1, "TCDC", 211, "boundary layer cloud layer"),
        ]
      : [
          gfsVar("cloud_cover", "mean", [0, 6, 1, 200, 0], ["TCDC", "entire atmosphere (considered as a single layer)"], ["average"]),
          gfsVar("cloud_cover_high", "mean", [0, 6, 1, 234, 0], ["TCDC", "high cloud layer"], ["average"]),
          gfsVar("cloud_cover_mid", "mean", [0, 6, 1, 224, 0], ["TCDC", "middle cloud layer"], ["average"]),
          gfsVar("cloud_cover_low", "mean", [0, 6, 1, 214, 0], ["TCDC", "low cloud layer"], ["average"]),
          gfsVar("cloud_cover_convective", "instant", [0, 6, 1, 244, 0], ["TCDC", "convective cloud layer"], ["instant"]),
          gfsVar("cloud_cover_boundary_layer", "mean", [0, 6, 1, 211, 0], ["TCDC", "boundary layer cloud layer"], ["average"]),
        ];
  return [
    ...common,
    ...clouds,
    gfsVar("lifted_index", "instant", [0, 7, 192, 1, 0], ["LFTX", "surface"], ["instant"]),
    gfsVar("boundary_layer_height", "instant", [0, 3, 196, 1, 0], ["HPBL", "surface"], ["instant"]),
    gfsVar("freezing_level_height", "instant", [0, 3, 5, 4, 0], ["HGT", "0C isotherm"], ["instant"]),
    gfsVar("temperature_925hPa", "instant", [0, 0, 0, 100, 92500], ["TMP", "925 mb"], ["instant"]),
    gfsVar("temperature_850hPa", "instant", [0, 0, 0, 100, 85000], ["TMP", "850 mb"], ["instant"]),
    gfsVar("surface_height", "instant", [0, 3, 5, 1, 0], ["HGT", "surface"], ["instant"]),
  ];
}

/** The subset of GFS variables with these names, in vocabulary order. */
export function pickVariables(all: readonly ModelVariable[], names: readonly string[]): ModelVariable[] {
  return all.filter((v) => names.includes(v.name));
}
