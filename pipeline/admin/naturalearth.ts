/**
 * Natural Earth 10m admin-1 states and provinces (GeoJSON): the admin-1 features whose union per
 * country is the country (the two layers always agree).
 */
import type { Logger } from "../../datasets/common/log.ts";
import { readSource } from "../common/source.ts";
import { parseFeatureCollection, type GeoJsonFeature } from "./geojson.ts";

/** The properties the step reads (and the embedded copy keeps). */
export const NE_PROPERTIES = ["iso_a2", "adm0_a3", "adm1_code", "iso_3166_2", "gn_a1_code", "gn_id", "name"] as const;

export interface AdminSourceFeature {
  /** ISO 3166-1 alpha-2 as Natural Earth gives it ("-1" or "-99" for disputed or special areas). */
  isoA2: string;
  adm0A3: string;
  adm1Code: string;
  /** Natural Earth's GeoNames admin-1 code, e.g. "FR.75" (a lower level in some countries). */
  gnA1Code: string;
  name: string;
  rings: Float64Array[];
}

function str(v: unknown): string {
  return typeof v === "string" ? v : v === null || v === undefined ? "" : String(v);
}

export function adminFeaturesOf(features: GeoJsonFeature[]): AdminSourceFeature[] {
  return features.map((f) => ({
    isoA2: str(f.properties.iso_a2),
    adm0A3: str(f.properties.adm0_a3),
    adm1Code: str(f.properties.adm1_code),
    gnA1Code: str(f.properties.gn_a1_code),
    name: str(f.properties.name),
    rings: f.rings,
  }));
}

export async function readNaturalEarth(location: string, cacheDir: string, logger: Logger): Promise<AdminSourceFeature[]> {
  const bytes = await readSource(location, { cacheDir, logger });
  return adminFeaturesOf(parseFeatureCollection(bytes.toString("utf8"), location));
}
