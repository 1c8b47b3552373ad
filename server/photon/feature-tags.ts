/**
 * Photon's `osm_key`, `osm_value` and `type` for our places, which are GeoNames features, not
 * OpenStreetMap objects: the OSM place tag a place of that kind and size carries (OSM wiki
 * "Key:place": city from about 100,000 inhabitants, town from about 10,000, village below;
 * capitals are cities), and Photon's address type of that tag (komoot/photon AddressType:
 * city for city, town and village; district for suburbs and hamlets; locality below).
 */

export interface FeatureTags {
  osmKey: string;
  osmValue: string;
  type: string;
}

const tags = (osmKey: string, osmValue: string, type: string): FeatureTags => ({ osmKey, osmValue, type });

/** Tags of a place by its GeoNames feature code and population. */
export function placeTags(featureCode: string, population: number): FeatureTags {
  switch (featureCode) {
    case "PPLC":
      return tags("place", "city", "city");
    case "PPLX":
      return tags("place", "suburb", "district");
    case "PPLL":
      return tags("place", "locality", "locality");
    case "PPLF":
      return tags("place", "hamlet", "district");
    case "PPLH":
    case "PPLQ":
    case "PPLW":
    case "PPLCH":
      return tags("place", "locality", "locality");
  }
  if (population >= 100_000) return tags("place", "city", "city");
  if (population >= 10_000) return tags("place", "town", "city");
  return tags("place", "village", "city");
}

/** An admin-1 area (Photon's state objects are OSM administrative boundaries). */
export const STATE_TAGS = tags("boundary", "administrative", "state");
/** A country known without its admin-1 area. */
export const COUNTRY_TAGS = tags("place", "country", "country");
