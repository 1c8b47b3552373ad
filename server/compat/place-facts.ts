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
  const ix = places.index;
  const c = ix.countryOf(place);
  const a = ix.admin1Of(place);
  return {
    geonameId: ix.geonameId[place]!,
    name: ix.name(place),
    lat: ix.lat(place),
    lon: ix.lon(place),
    featureCode: ix.tables.features[ix.feature[place]!]?.featureCode ?? "",
    population: ix.population[place]!,
    timezone: ix.timezoneOf(place) || undefined,
    country: c === undefined ? undefined : ix.tables.countries[c],
    admin1: a === undefined ? undefined : places.admin1(ix.tables.admin1[a]!.code),
  };
}
