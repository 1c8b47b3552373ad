/**
 * The docs page's world map: a simplified GeoJSON of the countries, built from the admin
 * dataset's own polygons (Natural Earth admin-1 areas grouped by country), so that the page needs
 * no tile server and draws exactly the borders reverse geocoding answers from. Built with the
 * index and stored in it (section `worldMap`), so the server only reads it.
 *
 * Simplification: a ring keeps a vertex only when it is at least MIN_STEP_DEG from the last kept
 * one (plus its last vertex), coordinates are rounded to 0.01°, and rings left with fewer than 4
 * vertices or spanning less than MIN_SPAN_DEG are dropped (small islands vanish at this scale).
 */
import type { PolygonLayer } from "../../datasets/admin/polygon-layer.ts";

export const MIN_STEP_DEG = 0.5;
export const MIN_SPAN_DEG = 1;

export interface WorldMap {
  type: "FeatureCollection";
  features: Array<{
    type: "Feature";
    properties: { iso2: string };
    geometry: { type: "MultiPolygon"; coordinates: number[][][][] };
  }>;
}

const round = (v: number): number => Math.round(v * 100) / 100;

/** The map of the admin layer's features, grouped by their ISO2 country. */
export function buildWorldMap(layer: PolygonLayer, iso2OfFeature: readonly string[]): WorldMap {
  const byCountry = new Map<string, number[][][][]>();
  const features = layer.featureChainStart.length - 1;
  for (let f = 0; f < features; f++) {
    const iso2 = iso2OfFeature[f] ?? "";
    const polygons = byCountry.get(iso2) ?? [];
    for (let c = layer.featureChainStart[f]!; c < layer.featureChainStart[f + 1]!; c++) {
      const from = layer.chainStart[c]!;
      const to = layer.chainStart[c + 1]!;
      const ring: number[][] = [];
      let lastX = NaN;
      let lastY = NaN;
      let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
      for (let v = from; v < to; v++) {
        const x = layer.xy[2 * v]!;
        const y = layer.xy[2 * v + 1]!;
        minX = Math.min(minX, x); maxX = Math.max(maxX, x);
        minY = Math.min(minY, y); maxY = Math.max(maxY, y);
        if (v === from || v === to - 1 || Math.abs(x - lastX) >= MIN_STEP_DEG || Math.abs(y - lastY) >= MIN_STEP_DEG) {
          ring.push([round(x), round(y)]);
          lastX = x;
          lastY = y;
        }
      }
      if (ring.length < 4 || Math.max(maxX - minX, maxY - minY) < MIN_SPAN_DEG) continue;
      polygons.push([ring]);
    }
    if (polygons.length > 0) byCountry.set(iso2, polygons);
  }
  return {
    type: "FeatureCollection",
    features: [...byCountry.entries()].map(([iso2, coordinates]) => ({
      type: "Feature",
      properties: { iso2 },
      geometry: { type: "MultiPolygon", coordinates },
    })),
  };
}
