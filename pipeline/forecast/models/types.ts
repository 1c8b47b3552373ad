/**
 * The model registry's shapes (Open-Meteo's pattern): a domain declares its grid, run cycles,
 * nominal steps and input files; each variable declares how to find it in GRIB (GRIB2 and GRIB1
 * selectors, the wgrib2 inventory name and level used to pick byte ranges from an .idx) and how
 * it aggregates over time. Storage scale and unit come from the vocabulary
 * (datasets/forecast/variables.ts) unless the variable overrides the scale.
 */
import type { DataLicence } from "../../../datasets/forecast/licences.ts";
import type { Aggregation, ForecastGrid } from "../../../datasets/forecast/types.ts";
import type { StatisticalProcess } from "../../grib/types.ts";

export interface Grib2Selector {
  discipline: number;
  category: number;
  number: number;
  /** Code table 4.5 type of the first fixed surface and its value in that type's unit (Pa for 100). */
  levelType: number;
  levelValue: number;
  /** Accepted statistical processes (code table 4.10); any when omitted. */
  statistics?: StatisticalProcess[];
}

export interface Grib1Selector {
  /** NCEP parameter table 2 code. */
  parameter: number;
  /** GRIB1 table 3 level type and value. */
  levelType: number;
  levelValue: number;
}

/** The fields of a wgrib2 inventory line that name a field: `:TMP:2 m above ground:`. */
export interface InventorySelector {
  name: string;
  level: string;
}

export interface ModelVariable {
  /** Vocabulary name. */
  name: string;
  /** How the GRIB fields aggregate: instant, or a statistic over each message's window. */
  aggregation: Aggregation;
  grib2?: Grib2Selector;
  grib1?: Grib1Selector;
  inventory: InventorySelector;
  /** Storage resolution overriding the vocabulary's. */
  scale?: number;
  /** Multiplies decoded values into the vocabulary's unit (ECMWF tp in m: 1000; fractions: 100). */
  factor?: number;
}

/** One input file of a run, relative to the source (a directory or a base URL). */
export interface InputFile {
  path: string;
}

export interface ModelDomain {
  id: string;
  description: string;
  /** The domain grid in canonical order (south to north, west to east). */
  grid: ForecastGrid;
  /** Cycles (UTC hours) of the runs. */
  runHours: number[];
  /** Nominal lead times in hours; the window of a step starts at the previous nominal step. */
  steps: number[];
  /**
   * Files holding a run. `run` is undefined for sample domains whose files carry their runs
   * (the runs are then read from the messages); NOAA-layout domains need it.
   */
  files(run: Date | undefined, steps: readonly number[]): InputFile[];
  /** True when `files` needs a run time (upstream layouts with one directory per cycle). */
  needsRun: boolean;
  /** Upstream base URL for `--source upstream`. */
  upstream?: string;
  /** Inventory beside each file: wgrib2 `.idx` (default) or ECMWF's `.index`. */
  inventoryFormat?: "wgrib2-idx" | "ecmwf-index";
  /** Who publishes the data, its licence and attribution text (datasets/forecast/licences.ts). */
  licence?: DataLicence;
  variables: ModelVariable[];
}
