/**
 * The administrative description shared by reverse geocoding (endpoint 2), lookup by id (7) and
 * weather by id (8): a pure function of the place's facts, its timezone, its coordinates and the
 * request's instant. A member is absent when its input is (at sea only `timezone` is given).
 */
import type { Admin1Info, ContinentInfo, CountryInfo } from "../../datasets/places/admin-types.ts";
import { describeTimezone } from "./describe-timezone.ts";
import type { AdministrativeWire } from "./wire-types.ts";

export interface AdministrativeInput {
  country?: CountryInfo;
  continent?: ContinentInfo;
  admin1?: Admin1Info;
  /** IANA timezone id of the point (Etc/GMT±N at sea). */
  timezone: string;
  /** Degrees north. */
  lat: number;
  /** Degrees east. */
  lon: number;
}

export function buildAdministrative(input: AdministrativeInput, instant: Date): AdministrativeWire {
  const timezone = describeTimezone(input.timezone, input.lat, input.lon, instant);
  // Members in the spec's order: continent, country, administrative1, timezone.
  const result: Partial<AdministrativeWire> = {};
  if (input.continent !== undefined) result.continent = { name: input.continent.names, code: input.continent.code };
  if (input.country !== undefined) {
    const c = input.country;
    result.country = { ISO2: c.iso2, ISO3: c.iso3, name: c.names, capital: c.capital, count: c.placeCount };
  }
  if (input.admin1 !== undefined) {
    const a = input.admin1;
    result.administrative1 = { code: a.code, id_admin: a.geonameId, name: a.name, count: a.placeCount };
  }
  result.timezone = timezone;
  return result as AdministrativeWire;
}
