/**
 * The administrative description shared by reverse geocoding (endpoint 2), lookup by id (7) and
 * weather by id (8): a pure function of the place's facts, its timezone, its coordinates and the
 * request's instant. A member is absent when its input is (at sea only `timezone` is given).
 */
import type { Admin1Info, ContinentInfo, CountryInfo } from "../../datasets/places/admin-types.ts";
import { Fragment } from "../api/body-parts.ts";
import { InstantPart, type TemplatePart } from "../api/instant-part.ts";
import { describeTimezone, TimezoneOfPoint } from "./describe-timezone.ts";
import type { Administrative1Wire, AdministrativeWire, ContinentWire, CountryWire } from "./wire-types.ts";

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
  if (input.continent !== undefined) result.continent = continentWire(input.continent);
  if (input.country !== undefined) result.country = countryWire(input.country);
  if (input.admin1 !== undefined) result.administrative1 = admin1Wire(input.admin1);
  result.timezone = timezone;
  return result as AdministrativeWire;
}

/**
 * The same description as JSON text in body parts (http/body-parts.ts): written at an instant,
 * they join to `JSON.stringify(buildAdministrative(input, instant))`. The continent, country and
 * admin-1 members (names in 23 languages, most of the bytes) are fragments made once per area;
 * the timezone member, which carries the instant, is an InstantPart, written at each answer's own.
 */
export function administrativeParts(input: AdministrativeInput, timezone = new TimezoneOfPoint(input.timezone, input.lat, input.lon)): TemplatePart[] {
  const parts: TemplatePart[] = ["{"];
  if (input.continent !== undefined) parts.push(memberOnce(input.continent, "continent", continentWire));
  if (input.country !== undefined) parts.push(memberOnce(input.country, "country", countryWire));
  if (input.admin1 !== undefined) parts.push(memberOnce(input.admin1, "administrative1", admin1Wire));
  parts.push(new InstantPart((now) => `"timezone":${timezone.json(now)}}`));
  return parts;
}

function continentWire(c: ContinentInfo): ContinentWire {
  return { name: c.names, code: c.code };
}

function countryWire(c: CountryInfo): CountryWire {
  return { ISO2: c.iso2, ISO3: c.iso3, name: c.names, capital: c.capital, count: c.placeCount };
}

function admin1Wire(a: Admin1Info): Administrative1Wire {
  return { code: a.code, id_admin: a.geonameId, name: a.name, count: a.placeCount };
}

/** `"name":JSON,` of each area's member, by the area's object (the loaded dataset's, alive as long as it is). */
const members = new WeakMap<object, Fragment>();

function memberOnce<T extends object>(area: T, name: string, wire: (area: T) => unknown): Fragment {
  let member = members.get(area);
  if (member === undefined) {
    member = Fragment.of(`"${name}":${JSON.stringify(wire(area))},`);
    members.set(area, member);
  }
  return member;
}
