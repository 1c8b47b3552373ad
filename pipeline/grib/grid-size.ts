/**
 * Guard against corrupt grid headers before anything of the grid's size is allocated.
 */
import { formatError } from "./errors.ts";
import type { GribField } from "./types.ts";

/** Largest grid we decode (1 GiB of float32); more is a corrupt header, not a real grid. */
export const MAX_POINTS = 2 ** 28;

/** The point count must be plausible and, for the grids we describe, equal to Ni x Nj. */
export function checkGridSize(field: GribField, file: string): void {
  const n = field.numberOfPoints;
  const at = field.sections.grid >= 0 ? field.sections.grid : field.messageOffset;
  if (!(n >= 1 && n <= MAX_POINTS)) throw formatError(file, at, `a grid of 1 to ${MAX_POINTS} points`, String(n));
  if (field.grid.kind !== "other" && field.grid.ni * field.grid.nj !== n) {
    throw formatError(file, at, `Ni x Nj equal to the ${n} data points`, `${field.grid.ni} x ${field.grid.nj}`);
  }
}

