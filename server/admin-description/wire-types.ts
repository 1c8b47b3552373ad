/**
 * The spec's administrative description, with its wire names (the only place they appear).
 */
import type { LocalizedNames } from "../../datasets/places/admin-types.ts";

export interface ContinentWire {
  name: LocalizedNames;
  /** GeoNames continent code: AF, AS, EU, NA, OC, SA, AN. */
  code: string;
}

export interface CountryWire {
  ISO2: string;
  ISO3: string;
  name: LocalizedNames;
  capital: string;
  /** Number of places of our gazetteer in the country. */
  count: number;
}

export interface Administrative1Wire {
  /** GeoNames form, e.g. "DE.16". */
  code: string;
  /** GeoNames id of the admin-1 area. */
  id_admin: number;
  name: string;
  /** Number of places of our gazetteer in the admin-1 area. */
  count: number;
}

export interface TimezoneWire {
  /** IANA id, e.g. "Europe/Berlin" or "Etc/GMT-12" at sea. */
  timezone: string;
  /** UTC offset at the instant, in whole minutes east of UTC (+05:30 → 330, −10:00 → −600). */
  GMT: number;
  /** The instant, in whole seconds since 1970-01-01T00:00:00Z. */
  UNIXTimestamp: number;
  /** 1 when the offset at the instant exceeds the zone's standard offset of that year, else 0. */
  isDST: 0 | 1;
  /** Local time at the instant, `YYYY-MM-DDTHH:MM:SS±HH:MM`. */
  timeFormatted: string;
  /** Local time of sunrise on the local day, rounded to the minute, same format; or a polar marker. */
  sunrise: string;
  /** Local time of sunset on the local day, rounded to the minute, same format; or a polar marker. */
  sunset: string;
}

export interface AdministrativeWire {
  continent?: ContinentWire;
  country?: CountryWire;
  administrative1?: Administrative1Wire;
  timezone: TimezoneWire;
}
