/**
 * Checks a freshly built index against brute force on its own layers (AdminIndex.lookupExact), on random
 * points of the whole sphere, on points jittered around random polygon vertices (where the
 * borders are) and on points up to about 30 km from admin vertices (the coast band). Any disagreement fails the build: the previous artifact keeps serving.
 */
import type { AdminIndex } from "../../datasets/admin/admin-index.ts";
import { mulberry32 } from "../../datasets/common/prng.ts";

export interface ValidationResult {
  points: number;
  mismatches: { lat: number; lon: number; layer: string; index: number; exact: number }[];
}

export function validateIndex(index: AdminIndex, randomPoints: number, borderPoints: number, seed = 1): ValidationResult {
  const rnd = mulberry32(seed);
  const d = index.data;
  const mismatches: ValidationResult["mismatches"] = [];
  const check = (lat: number, lon: number): void => {
    index.lookupExact(lat, lon);
    const a = index.ids[0]!;
    const t = index.ids[1]!;
    index.lookupIds(lat, lon);
    if (index.ids[0] !== a) mismatches.push({ lat, lon, layer: "admin", index: index.ids[0]!, exact: a });
    if (index.ids[1] !== t) mismatches.push({ lat, lon, layer: "timezones", index: index.ids[1]!, exact: t });
  };
  for (let k = 0; k < randomPoints; k++) {
    check((Math.asin(2 * rnd() - 1) * 180) / Math.PI, rnd() * 360 - 180);
  }
  for (let k = 0; k < borderPoints; k++) {
    const layer = k % 2 === 0 ? d.admin : d.tz;
    const v = Math.floor(rnd() * layer.xs.length);
    // Within about 1 km of a vertex.
    const lat = Math.max(-90, Math.min(90, layer.ys[v]! + (rnd() - 0.5) * 0.018));
    const lon = Math.max(-180, Math.min(180, layer.xs[v]! + (rnd() - 0.5) * 0.018));
    check(lat, lon);
  }
  // The coast band: within about 30 km of an admin vertex (the territorial-sea rule's reach).
  const coastPoints = Math.floor(borderPoints / 4);
  for (let k = 0; k < coastPoints; k++) {
    const v = Math.floor(rnd() * d.admin.xs.length);
    const lat = Math.max(-90, Math.min(90, d.admin.ys[v]! + (rnd() - 0.5) * 0.55));
    const lon = Math.max(-180, Math.min(180, d.admin.xs[v]! + (rnd() - 0.5) * 0.55));
    check(lat, lon);
  }
  return { points: randomPoints + borderPoints + coastPoints, mismatches };
}
