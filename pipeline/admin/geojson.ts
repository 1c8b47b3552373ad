/**
 * Reading GeoJSON FeatureCollections (Natural Earth, timezone-boundary-builder) into features
 * with their properties and rings as flat coordinate arrays. Checks the structure and names the
 * feature and the field of anything unexpected.
 */
import { DataFormatError } from "../../datasets/common/errors.ts";

export interface GeoJsonFeature {
  properties: Record<string, unknown>;
  /** Every ring of every polygon, each as [lon, lat, lon, lat, ...] (closed: first = last). */
  rings: Float64Array[];
  /** The same rings grouped by polygon: outer ring first, then its holes. */
  polygons: Float64Array[][];
}

interface RawFeature {
  type?: unknown;
  properties?: unknown;
  geometry?: { type?: unknown; coordinates?: unknown } | null;
}

function ringOf(raw: unknown, file: string, where: string): Float64Array {
  if (!Array.isArray(raw)) throw new DataFormatError({ file, field: where }, "a ring (array of positions)", typeof raw);
  const out = new Float64Array(raw.length * 2);
  for (let k = 0; k < raw.length; k++) {
    const p = raw[k] as unknown;
    if (!Array.isArray(p) || typeof p[0] !== "number" || typeof p[1] !== "number") {
      throw new DataFormatError({ file, field: `${where}[${k}]` }, "a position [lon, lat]", JSON.stringify(p)?.slice(0, 60) ?? "undefined");
    }
    out[2 * k] = p[0];
    out[2 * k + 1] = p[1];
  }
  return out;
}

/** Parses a FeatureCollection of Polygon/MultiPolygon features. */
export function parseFeatureCollection(text: string, file: string): GeoJsonFeature[] {
  let doc: { type?: unknown; features?: unknown };
  try {
    doc = JSON.parse(text) as typeof doc;
  } catch (err) {
    throw new DataFormatError({ file }, "GeoJSON text", `unparseable JSON (${(err as Error).message})`);
  }
  if (doc.type !== "FeatureCollection" || !Array.isArray(doc.features)) {
    throw new DataFormatError({ file, field: "type" }, "a FeatureCollection with features", String(doc.type));
  }
  const out: GeoJsonFeature[] = [];
  (doc.features as RawFeature[]).forEach((f, index) => {
    const where = `features[${index}]`;
    const g = f.geometry;
    if (!g || (g.type !== "Polygon" && g.type !== "MultiPolygon")) {
      throw new DataFormatError({ file, field: `${where}.geometry` }, "a Polygon or MultiPolygon", String(g?.type));
    }
    const polys = (g.type === "Polygon" ? [g.coordinates] : g.coordinates) as unknown[];
    if (!Array.isArray(polys)) throw new DataFormatError({ file, field: `${where}.geometry.coordinates` }, "an array", typeof polys);
    const polygons: Float64Array[][] = [];
    polys.forEach((poly, pi) => {
      if (!Array.isArray(poly)) throw new DataFormatError({ file, field: `${where}.coordinates[${pi}]` }, "an array of rings", typeof poly);
      polygons.push(poly.map((ring, ri) => ringOf(ring, file, `${where}.coordinates[${pi}][${ri}]`)));
    });
    out.push({ properties: (f.properties ?? {}) as Record<string, unknown>, rings: polygons.flat(), polygons });
  });
  return out;
}
