/**
 * What the other APIs' geocoders say of one place of our gazetteer, read from the places index
 * (the same records /geocode/search and /geocode/id answer from): GeoNames id, name, position,
 * feature code, population, timezone, country and admin-1 area.
 */
import type { Admin1Info, CountryInfo } from "../../datasets/places/admin-types.ts";
import type { PlacesData } from "../places/places-data.ts";

export interface PlaceFacts {
  geonameId: number;
  name: string;
  lat: number;
  lon: number;
  /** GeoNames feature code, e.g. PPLC ("" when unknown). */
  featureCode: string;
  population: number;
  timezone: string | undefined;
  country: CountryInfo | undefined;
  admin1: Admin1Info | undefined;
}

export function placeFacts(places: PlacesData, place: number): PlaceFacts {
  const r = places.record(place);
  return {
    geonameId: r.geonameId,
    name: r.name,
    lat: r.lat,
    lon: r.lon,
    featureCode: places.featureCodeOf(r),
    population: r.population,
    timezone: r.timezone === undefined ? undefined : places.index.areas.timezones[r.timezone] || undefined,
    country: places.countryOf(r),
    admin1: places.admin1Of(r),
  };
}
