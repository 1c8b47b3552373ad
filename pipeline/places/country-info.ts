/**
 * GeoNames `countryInfo.txt`: tab-separated, 19 columns, preceded upstream by a block of `#`
 * comment lines whose last one (`#ISO\tISO3\t...`) is the column header.
 * Columns: ISO, ISO3, ISO-Numeric, fips, Country, Capital, Area(in sq km), Population, Continent,
 * tld, CurrencyCode, CurrencyName, Phone, Postal Code Format, Postal Code Regex, Languages,
 * geonameid, neighbours, EquivalentFipsCode.
 */

export interface CountryRecord {
  iso2: string;
  iso3: string;
  name: string;
  capital: string;
  /** GeoNames continent code. */
  continent: string;
  population: number;
  geonameId: number;
}

export const CONTINENT_CODES = ["AF", "AS", "EU", "NA", "OC", "SA", "AN"] as const;

const MIN_COLUMNS = 17;

/** The parsed row, `null` for a comment or blank line, or a string saying what is wrong. */
export function parseCountryInfoLine(line: string): CountryRecord | null | string {
  if (line.startsWith("#") || line.trim() === "") return null;
  const f = line.split("\t");
  if (f.length < MIN_COLUMNS) return `at least ${MIN_COLUMNS} tab-separated columns, got ${f.length}`;
  const [iso2, iso3, , , name, capital, , population, continent] = f as [string, string, string, string, string, string, string, string, string];
  const geonameId = f[16]!;
  if (!/^[A-Z]{2}$/.test(iso2)) return `an ISO 3166 alpha-2 code in column 1, got ${JSON.stringify(iso2)}`;
  if (!/^[A-Z]{3}$/.test(iso3)) return `an ISO 3166 alpha-3 code in column 2, got ${JSON.stringify(iso3)}`;
  if (!name) return "a country name in column 5, got nothing";
  if (!(CONTINENT_CODES as readonly string[]).includes(continent)) {
    return `a continent code (${CONTINENT_CODES.join(" ")}) in column 9, got ${JSON.stringify(continent)}`;
  }
  if (!/^\d*$/.test(population)) return `a population in column 8, got ${JSON.stringify(population)}`;
  if (!/^[1-9]\d*$/.test(geonameId)) return `a GeoNames id in column 17, got ${JSON.stringify(geonameId)}`;
  return { iso2, iso3, name, capital, continent, population: Number(population || 0), geonameId: Number(geonameId) };
}
