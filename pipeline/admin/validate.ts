/**
 * Checks a freshly built index, read from its own bytes, against brute force on the layers it was
 * built from (datasets/admin/exact.ts), on random points of the whole sphere, on points jittered
 * around random polygon vertices (where the borders are) and on points up to about 30 km from
 * admin vertices (the coast band). Any disagreement fails the build: the previous artifact keeps
 * serving.
 */
import type { AdminIndex } from "../../datasets/admin/admin-index.ts";
import { exactFeatures, type CountryAttributes } from "../../datasets/admin/exact.ts";
import { memoryAccess, vertexCount, type PolygonLayer } from "../../datasets/admin/polygon-layer.ts";
import { mulberry32 } from "../../datasets/common/prng.ts";

export interface ValidationResult {
  points: number;
  mismatches: { lat: number; lon: number; layer: string; index: number; exact: number }[];
}

export interface BuiltLayers {
  admin: PolygonLayer;
  tz: PolygonLayer;
  attributes: CountryAttributes;
}

export function validateIndex(index: AdminIndex, built: BuiltLayers, randomPoints: number, borderPoints: number, seed = 1): ValidationResult {
  const rnd = mulberry32(seed);
  const admin = memoryAccess(built.admin);
  const tz = memoryAccess(built.tz);
  const mismatches: ValidationResult["mismatches"] = [];
  const check = (lat: number, lon: number): void => {
    const exact = exactFeatures(admin, tz, built.attributes, lat, lon);
    const got = index.features(lat, lon);
    if (got.admin !== exact.admin) mismatches.push({ lat, lon, layer: "admin", index: got.admin, exact: exact.admin });
    if (got.tz !== exact.tz) mismatches.push({ lat, lon, layer: "timezones", index: got.tz, exact: exact.tz });
    const tzOnly = index.timezoneFeature(lat, lon);
    if (tzOnly !== exact.tz) mismatches.push({ lat, lon, layer: "timezones (timezone lookup)", index: tzOnly, exact: exact.tz });
  };
  /** A point within about `spread` / 2 degrees of a random vertex of the layer. */
  const near = (layer: PolygonLayer, spread: number): void => {
    const v = Math.floor(rnd() * vertexCount(layer));
    const lat = Math.max(-90, Math.min(90, layer.xy[2 * v + 1]! + (rnd() - 0.5) * spread));
    const lon = Math.max(-180, Math.min(180, layer.xy[2 * v]! + (rnd() - 0.5) * spread));
    check(lat, lon);
  };
  for (let k = 0; k < randomPoints; k++) {
    check((Math.asin(2 * rnd() - 1) * 180) / Math.PI, rnd() * 360 - 180);
  }
  // Within about 1 km of a vertex.
  for (let k = 0; k < borderPoints; k++) near(k % 2 === 0 ? built.admin : built.tz, 0.018);
  // The coast band: within about 30 km of an admin vertex (the territorial-sea rule's reach).
  const coastPoints = Math.floor(borderPoints / 4);
  for (let k = 0; k < coastPoints; k++) near(built.admin, 0.55);
  return { points: randomPoints + borderPoints + coastPoints, mismatches };
}
