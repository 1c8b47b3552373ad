/**
 * The loaded places dataset: the search index plus the lookups other endpoints use (reverse
 * geocoding and weather by id take countries, continents and admin-1 areas from here).
 */
import type { Admin1Info, ContinentInfo, CountryInfo } from "../../datasets/places/admin-types.ts";
import { readableFeatureType } from "../../datasets/places/feature-types.ts";
import type { PlacesIndex } from "../../datasets/places/index-reader.ts";
import { formatPlaceId } from "../../datasets/places/place-id.ts";
import { isKnownTimeZone } from "../admin-description/zone-clock.ts";
import { finishNow, type Work } from "../../datasets/common/work.ts";
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
  /** Timezone ids of the index the runtime's ICU does not know (treated as absent). */
  readonly unknownTimezones: string[] = [];
  private readonly timezoneKnown: boolean[];

  /** `parts` are what `build` computes (computed here when not given). */
  constructor(readonly index: PlacesIndex, parts: { searcher: PlaceSearch; timezoneKnown: boolean[] } = finishNow(PlacesData.parts(index))) {
    this.searcher = parts.searcher;
    for (const c of index.tables.countries) this.countries.set(c.iso2, c);
    for (const c of index.tables.continents) this.continents.set(c.code, c);
    for (const a of index.tables.admin1) {
      this.admin1s.set(a.code, { code: a.code, geonameId: a.geonameId, name: a.name, placeCount: a.placeCount });
    }
    this.timezoneKnown = parts.timezoneKnown;
    index.tables.timezones.forEach((zone, i) => {
      if (!this.timezoneKnown[i]) this.unknownTimezones.push(zone);
    });
  }

  /** The dataset as work that yields between its parts (datasets/common/work.ts): what the loader runs in slices. */
  static *build(index: PlacesIndex): Work<PlacesData> {
    return new PlacesData(index, yield* PlacesData.parts(index));
  }

  private static *parts(index: PlacesIndex): Work<{ searcher: PlaceSearch; timezoneKnown: boolean[] }> {
    const searcher = yield* PlaceSearch.build(index);
    // Each zone the runtime has not seen yet costs an Intl formatter (~1 ms).
    const timezoneKnown: boolean[] = [];
    for (const zone of index.tables.timezones) {
      timezoneKnown.push(isKnownTimeZone(zone));
      yield;
    }
    return { searcher, timezoneKnown };
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

  private countryOfPlace(place: number): CountryInfo | undefined {
    const c = this.index.countryOf(place);
    return c === undefined ? undefined : this.index.tables.countries[c];
  }

  private admin1OfPlace(place: number): Admin1Info | undefined {
    const a = this.index.admin1Of(place);
    return a === undefined ? undefined : this.admin1s.get(this.index.tables.admin1[a]!.code);
  }

  point(place: number): PointWire {
    const ix = this.index;
    const country = this.countryOfPlace(place);
    const admin1 = this.admin1OfPlace(place);
    const address: string[] = [];
    if (admin1) address.push(admin1.name);
    if (country) address.push(country.names.EN);
    const feature = ix.tables.features[ix.feature[place]!];
    return {
      id: formatPlaceId(ix.geonameId[place]!),
      name: ix.name(place),
      address,
      lat: ix.lat(place),
      lon: ix.lon(place),
      type: feature ? readableFeatureType(feature.featureClass, feature.featureCode) : "place",
      ISO2: country?.iso2 ?? "",
    };
  }

  administrativeInput(place: number): PlaceAdministrativeInput {
    const country = this.countryOfPlace(place);
    const continent = country ? this.continents.get(country.continentCode) : undefined;
    const admin1 = this.admin1OfPlace(place);
    const t = this.index.timezone[place]!;
    const timezone = this.timezoneKnown[t] ? this.index.tables.timezones[t] : undefined;
    // Absent members as undefined, so that every input has one shape (the builder's reads stay fast).
    return { country, continent, admin1, timezone: timezone || undefined, lat: this.index.lat(place), lon: this.index.lon(place) };
  }
}
