/** Every model (domain) the forecast step knows, by id. */
import { GFS025, GFS050, GFS100 } from "./gfs/domains.ts";
import { GFS_2P5_SAMPLE } from "./gfs-2p5-sample/domain.ts";
import { GFS_IBERIA_GRIB1, GFS_MEDITERRANEAN_GRIB1 } from "./gfs-0p5-grib1/domains.ts";
import { GFS_ALASKA_0P5, GFS_ALASKA_2P5 } from "./gfs-alaska/domains.ts";
import { GFS_1P0_PRECIP } from "./gfs-1p0-precip/domain.ts";
import { ECMWF_IFS_0P25 } from "./ecmwf-ifs/domain.ts";
import { CMC_GDPS } from "./cmc-gdps/domain.ts";
import type { ModelDomain } from "./types.ts";

export const MODELS: readonly ModelDomain[] = [
  GFS025,
  GFS050,
  GFS100,
  GFS_2P5_SAMPLE,
  GFS_IBERIA_GRIB1,
  GFS_MEDITERRANEAN_GRIB1,
  GFS_ALASKA_0P5,
  GFS_ALASKA_2P5,
  GFS_1P0_PRECIP,
  ECMWF_IFS_0P25,
  CMC_GDPS,
];

export function modelById(id: string): ModelDomain | undefined {
  return MODELS.find((m) => m.id === id);
}
