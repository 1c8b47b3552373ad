/**
 * The shape shared by the global lat/lon models published one directory per cycle (GFS, ECCC
 * GDPS, ECMWF IFS): a grid over the whole globe from 90° S, files named from the run's UTC date
 * and hour, so a run time is always needed.
 */
import { latLonGrid, pad } from "./steps.ts";
import type { ModelDomain } from "./types.ts";

/** The parts of a run time that upstream paths are made of (UTC). */
export interface RunStamp {
  /** YYYYMMDD */
  ymd: string;
  /** HH */
  hh: string;
}

export type GlobalDomainSpec = Omit<ModelDomain, "grid" | "files" | "needsRun"> & {
  /** Grid increment in degrees, the same on both axes. */
  step: number;
  /** Longitude of the grid's first column (0 for NCEP, −180 for ECCC and ECMWF). */
  west: number;
  /** The files of one run for the wanted steps, relative to the source. */
  paths(run: RunStamp, wanted: readonly number[]): string[];
};

export function globalDomain(spec: GlobalDomainSpec): ModelDomain {
  const { step, west, paths, ...domain } = spec;
  return {
    ...domain,
    grid: latLonGrid(-90, west, step, step, Math.round(180 / step) + 1, Math.round(360 / step)),
    needsRun: true,
    files(run, wanted) {
      if (!run) throw new Error(`${spec.id}: a run time is needed`);
      const stamp = { ymd: `${run.getUTCFullYear()}${pad(run.getUTCMonth() + 1, 2)}${pad(run.getUTCDate(), 2)}`, hh: pad(run.getUTCHours(), 2) };
      return paths(stamp, wanted).map((path) => ({ path }));
    },
  };
}
