/**
 * The opened places dataset: the search index (read where it lies) plus the lookups other
 * endpoints use (reverse geocoding and weather by id take countries, continents and admin-1 areas
 * from here: the areas tables, kept in memory).
 */
import type { Admin1Info, ContinentInfo, CountryInfo } from "../../datasets/places/admin-types.ts";
import { readableFeatureType } from "../../datasets/places/feature-types.ts";
import type { PlaceRecord, PlacesIndex } from "../../datasets/places/index-reader.ts";
import { formatPlaceId } from "../../datasets/places/place-id.ts";
import { isKnownTimeZone } from "../admin-description/zone-clock.ts";
import { PlaceSearch, type SearchPage } from "./search.ts";

/** The spec's point object, wire names. */
export interface PointWire {
  id: string;
  name: string;
  address?: string[];
  lat: number;
  lon: number;
  type?: string;
  ISO2: string;
}

/** What the administrative builder needs about one place. */
export interface PlaceAdministrativeInput {
  country?: CountryInfo;
  continent?: ContinentInfo;
  admin1?: Admin1Info;
  /** The place's own GeoNames timezone (undefined for the rare place without one). */
  timezone?: string;
  lat: number;
  lon: number;
}

export class PlacesData {
  private readonly searcher: PlaceSearch;
  private readonly countries = new Map<string, CountryInfo>();
  private readonly continents = new Map<string, ContinentInfo>();
  private readonly admin1s = new Map<string, Admin1Info>();
  /** Per admin-1 index: its Admin1Info (the same objects as `admin1s`). */
  private readonly admin1ByIndex: Admin1Info[];
  /** Timezone ids of the index the runtime's ICU does not know (treated as absent). */
  readonly unknownTimezones: string[] = [];
  private readonly timezoneKnown: boolean[];

  constructor(readonly index: PlacesIndex) {
    this.searcher = new PlaceSearch(index);
    const { areas } = index;
    for (const c of areas.countries) this.countries.set(c.iso2, c);
    for (const c of areas.continents) this.continents.set(c.code, c);
    this.admin1ByIndex = areas.admin1.map((a) => ({ code: a.code, geonameId: a.geonameId, name: a.name, placeCount: a.placeCount }));
    for (const a of this.admin1ByIndex) this.admin1s.set(a.code, a);
    // Each zone the runtime has not seen yet costs an Intl formatter (~1 ms): 395 zones, about 0.1 s at open.
    this.timezoneKnown = areas.timezones.map((zone) => isKnownTimeZone(zone));
    areas.timezones.forEach((zone, i) => {
      if (!this.timezoneKnown[i]) this.unknownTimezones.push(zone);
    });
  }

  /** Country facts by ISO 3166 alpha-2 code ("DE"). */
  country(iso2: string): CountryInfo | undefined {
    return this.countries.get(iso2);
  }

  /** Continent by GeoNames continent code (AF AS EU NA OC SA AN). */
  continent(code: string): ContinentInfo | undefined {
    return this.continents.get(code);
  }

  /** Admin-1 area by GeoNames code ("DE.16"). */
  admin1(code: string): Admin1Info | undefined {
    return this.admin1s.get(code);
  }

  search(text: string, limit: number, offset: number): SearchPage {
    return this.searcher.search(text, limit, offset);
  }

  /** Place index of a GeoNames id, or undefined. */
  placeByGeonameId(id: number): number | undefined {
    return this.index.placeByGeonameId(id);
  }

  /** A place's record (one read, two for a long name: datasets/places/index-reader.ts). */
  record(place: number): PlaceRecord {
    return this.index.record(place);
  }

  /** The country of a record, or undefined. */
  countryOf(r: PlaceRecord): CountryInfo | undefined {
    return r.country === undefined ? undefined : this.index.areas.countries[r.country];
  }

  /** The admin-1 area of a record, or undefined. */
  admin1Of(r: PlaceRecord): Admin1Info | undefined {
    return r.admin1 === undefined ? undefined : this.admin1ByIndex[r.admin1];
  }

  /** The GeoNames feature code of a record ("" when unknown). */
  featureCodeOf(r: PlaceRecord): string {
    return r.feature === undefined ? "" : (this.index.areas.features[r.feature]?.featureCode ?? "");
  }

  /** The record's timezone when the runtime knows it, else undefined. */
  timezoneOf(r: PlaceRecord): string | undefined {
    return r.timezone !== undefined && this.timezoneKnown[r.timezone] ? this.index.areas.timezones[r.timezone] || undefined : undefined;
  }

  point(place: number): PointWire {
    return this.pointOf(this.index.record(place));
  }

  /** The point object of a record already read. */
  pointOf(r: PlaceRecord): PointWire {
    const country = this.countryOf(r);
    const admin1 = this.admin1Of(r);
    const address: string[] = [];
    if (admin1) address.push(admin1.name);
    if (country) address.push(country.names.EN);
    const feature = r.feature === undefined ? undefined : this.index.areas.features[r.feature];
    return {
      id: formatPlaceId(r.geonameId),
      name: r.name,
      address,
      lat: r.lat,
      lon: r.lon,
      type: feature ? readableFeatureType(feature.featureClass, feature.featureCode) : "place",
      ISO2: country?.iso2 ?? "",
    };
  }

  /** What the administrative description of a record (read once with record()) is built from. */
  administrativeInput(r: PlaceRecord): PlaceAdministrativeInput {
    const country = this.countryOf(r);
    const continent = country ? this.continents.get(country.continentCode) : undefined;
    // Absent members as undefined, so that every input has one shape (the builder's reads stay fast).
    return { country, continent, admin1: this.admin1Of(r), timezone: this.timezoneOf(r), lat: r.lat, lon: r.lon };
  }
}
