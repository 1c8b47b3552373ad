/**
 * Country names people write that neither GeoNames' countryInfo nor CLDR's English names (default,
 * short and variant forms, e.g. "Ivory Coast", "Czech Republic", "Swaziland", "East Timor") carry:
 * former names and the inverted "Name, Qualifier" forms of reference lists. Kept small; each entry
 * says where the form comes from. A form with a comma is matched as one qualifier spanning two
 * comma-separated parts of a query ("Seoul, Korea, South": server/places/search.ts).
 */

/** [ISO2, form, source]. */
export const COUNTRY_FORMS: readonly (readonly [string, string, string])[] = [
  // Former names (the UN's list of member state names records each change).
  ["MK", "Macedonia", "the country's name until the Prespa agreement took effect in February 2019"],
  ["MK", "Republic of Macedonia", "idem"],
  ["CD", "Zaire", "the country's name from 1971 to 1997"],
  ["MM", "Burma", "the name until 1989, still the CIA World Factbook's"],
  ["LK", "Ceylon", "the name until 1972"],
  ["BF", "Upper Volta", "the name until 1984"],
  // The article of the official short names (UN Terminology: "the Gambia", "the Bahamas").
  ["GM", "The Gambia", "UN Terminology short name"],
  ["BS", "The Bahamas", "UN Terminology short name"],
  // CIA World Factbook's inverted short forms.
  ["GM", "Gambia, The", "CIA World Factbook"],
  ["BS", "Bahamas, The", "CIA World Factbook"],
  ["KR", "Korea, South", "CIA World Factbook"],
  ["KP", "Korea, North", "CIA World Factbook"],
  ["CD", "Congo, Democratic Republic of the", "CIA World Factbook"],
  ["CG", "Congo, Republic of the", "CIA World Factbook"],
  ["FM", "Micronesia, Federated States of", "CIA World Factbook"],
  // ISO 3166-1 English short names that differ from GeoNames' and CLDR's.
  ["KR", "Korea, Republic of", "ISO 3166-1"],
  ["KP", "Korea, Democratic People's Republic of", "ISO 3166-1"],
  ["IR", "Iran, Islamic Republic of", "ISO 3166-1"],
  ["TZ", "Tanzania, United Republic of", "ISO 3166-1"],
  ["MD", "Moldova, Republic of", "ISO 3166-1"],
  ["VE", "Venezuela, Bolivarian Republic of", "ISO 3166-1"],
  ["BO", "Bolivia, Plurinational State of", "ISO 3166-1"],
  ["PS", "Palestine, State of", "ISO 3166-1"],
  ["VN", "Viet Nam", "ISO 3166-1"],
  ["LA", "Lao People's Democratic Republic", "ISO 3166-1"],
  ["SY", "Syrian Arab Republic", "ISO 3166-1"],
  ["BN", "Brunei Darussalam", "ISO 3166-1"],
  ["RU", "Russian Federation", "ISO 3166-1"],
  ["US", "United States of America", "ISO 3166-1"],
  ["GB", "United Kingdom of Great Britain and Northern Ireland", "ISO 3166-1"],
];
