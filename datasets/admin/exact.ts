/**
 * The reverse-geocoding rules by brute force over every feature: what the index answers near the
 * poles and the antimeridian, and what the build checks the index against (pipeline/admin/
 * validate.ts). The same rules as the slot table, written once against LayerAccess so that they
 * run on the layers in memory (pipeline) and on the artifact's bytes (server).
 */
import { firstFeatureContaining, nearestAmong, nearestFeatureWithin, type LayerAccess } from "./polygon-layer.ts";

/**
 * A point in no admin-1 polygon but within this many km of one belongs to the nearest: the
 * territorial sea, 12 nautical miles (UNCLOS art. 3; 1 nautical mile = 1,852 m) off the coast,
 * which also absorbs Natural Earth's generalized 1:10m coastlines (Cairns, Dorval and Palm
 * Jumeirah lie more than 2 km outside them). Boundary records list the admin edges within this
 * distance of their box, so the search never leaves the record.
 */
export const COAST_TOLERANCE_KM = 12 * 1.852;

/** "No feature": at sea for the admin layer, the ocean band for the timezone layer. */
export const NO_FEATURE = 0xffffffff;

/** The admin and timezone features of a point (NO_FEATURE for none). */
export interface FeaturePair {
  admin: number;
  tz: number;
}

/** The attributes the rules need: each admin feature's country, each zone's country ("" for none). */
export interface CountryAttributes {
  iso2: readonly string[];
  tzCountry: readonly string[];
}

/** Admin features of one country, in ascending order. */
function* featuresOf(attributes: CountryAttributes, country: string): Generator<number> {
  for (let f = 0; f < attributes.iso2.length; f++) if (attributes.iso2[f] === country) yield f;
}

/**
 * A point in no admin area and farther than the coast tolerance from any, but inside a country's
 * timezone polygon (its territorial waters around land Natural Earth leaves out): that country's
 * nearest area. Otherwise `admin` unchanged.
 */
export function offshoreAdmin(admin: LayerAccess, attributes: CountryAttributes, pair: FeaturePair, lat: number, lon: number): number {
  if (pair.admin !== NO_FEATURE || pair.tz === NO_FEATURE) return pair.admin;
  const country = attributes.tzCountry[pair.tz];
  if (!country) return pair.admin;
  // Widening searches: most such points are a few tens of km from their country's areas.
  for (const km of [100, 1000, Infinity]) {
    const near = nearestAmong(admin, featuresOf(attributes, country), lon, lat, km);
    if (near) return near.feature;
  }
  return pair.admin;
}

/**
 * Brute force over every feature: the first admin feature containing the point, else the nearest
 * within the coast tolerance, else (in a country's timezone polygon) that country's nearest; the
 * first timezone feature containing it.
 */
export function exactFeatures(admin: LayerAccess, tz: LayerAccess, attributes: CountryAttributes, lat: number, lon: number): FeaturePair {
  const a = firstFeatureContaining(admin, lon, lat) ?? nearestFeatureWithin(admin, lon, lat, COAST_TOLERANCE_KM) ?? NO_FEATURE;
  const t = firstFeatureContaining(tz, lon, lat) ?? NO_FEATURE;
  const pair = { admin: a, tz: t };
  pair.admin = offshoreAdmin(admin, attributes, pair, lat, lon);
  return pair;
}

/** The first timezone feature containing the point, brute force (NO_FEATURE for none). */
export function exactTimezone(tz: LayerAccess, lat: number, lon: number): number {
  return firstFeatureContaining(tz, lon, lat) ?? NO_FEATURE;
}
