/**
 * Photon's GeoJSON answer: a FeatureCollection of Point features whose properties come in the
 * order Photon's GeoJsonFormatter writes them (osm_key, osm_value, type, name, state, country,
 * countrycode, extent), absent ones left out. We have no OSM objects, so no osm_type / osm_id.
 */
import type { FeatureTags } from "./feature-tags.ts";

export interface PhotonFeature {
  tags: FeatureTags;
  name: string;
  state?: string;
  country?: string;
  countrycode?: string;
  /** [west, north, east, south], Photon's order. */
  extent?: [number, number, number, number];
  lat: number;
  lon: number;
}

function featureJson(f: PhotonFeature): string {
  const p = [`"osm_key":${JSON.stringify(f.tags.osmKey)},"osm_value":${JSON.stringify(f.tags.osmValue)},"type":${JSON.stringify(f.tags.type)},"name":${JSON.stringify(f.name)}`];
  if (f.state !== undefined) p.push(`,"state":${JSON.stringify(f.state)}`);
  if (f.country !== undefined) p.push(`,"country":${JSON.stringify(f.country)}`);
  if (f.countrycode !== undefined) p.push(`,"countrycode":${JSON.stringify(f.countrycode)}`);
  if (f.extent !== undefined) p.push(`,"extent":[${f.extent.join(",")}]`);
  return `{"type":"Feature","properties":{${p.join("")}},"geometry":{"type":"Point","coordinates":[${f.lon},${f.lat}]}}`;
}

export function featureCollectionJson(features: readonly PhotonFeature[]): string {
  return `{"type":"FeatureCollection","features":[${features.map(featureJson).join(",")}]}`;
}
