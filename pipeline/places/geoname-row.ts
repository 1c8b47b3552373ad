/**
 * One row of a GeoNames place dump (`allCountries.txt`, `cities500.txt`, `cities15000.txt`, a
 * country file): 19 tab-separated columns, UTF-8, no header.
 * geonameid, name, asciiname, alternatenames (comma-separated), latitude, longitude,
 * feature class, feature code, country code, cc2, admin1 code, admin2 code, admin3 code,
 * admin4 code, population, elevation, dem, timezone, modification date.
 */

export interface GeonameRecord {
  geonameId: number;
  name: string;
  asciiName: string;
  alternateNames: string[];
  lat: number;
  lon: number;
  featureClass: string;
  featureCode: string;
  countryCode: string;
  cc2: string;
  admin1: string;
  admin2: string;
  admin3: string;
  admin4: string;
  population: number;
  elevation: string;
  dem: string;
  timezone: string;
  modified: string;
}

export const GEONAME_COLUMNS = 19;
const DECIMAL = /^-?\d+(\.\d+)?$/;

export function parseGeonameLine(line: string): GeonameRecord | null | string {
  if (line === "") return null;
  const f = line.split("\t");
  if (f.length !== GEONAME_COLUMNS) return `${GEONAME_COLUMNS} tab-separated columns, got ${f.length}`;
  const [id, name, asciiName, alternates, lat, lon, fclass, fcode, cc, cc2, a1, a2, a3, a4, population, elevation, dem, timezone, modified] =
    f as [string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string];
  if (!/^[1-9]\d{0,9}$/.test(id) || Number(id) > 0xffffffff) return `a GeoNames id in column 1, got ${JSON.stringify(id)}`;
  if (name.trim() === "") return "a name in column 2, got nothing";
  if (!DECIMAL.test(lat) || Math.abs(Number(lat)) > 90) return `a latitude from -90 to 90 in column 5, got ${JSON.stringify(lat)}`;
  if (!DECIMAL.test(lon) || Math.abs(Number(lon)) > 180) return `a longitude from -180 to 180 in column 6, got ${JSON.stringify(lon)}`;
  if (!/^[A-Z]?$/.test(fclass)) return `a feature class letter in column 7, got ${JSON.stringify(fclass)}`;
  if (!/^[A-Z0-9]*$/.test(fcode)) return `a feature code in column 8, got ${JSON.stringify(fcode)}`;
  if (!/^([A-Z]{2})?$/.test(cc)) return `a country code in column 9, got ${JSON.stringify(cc)}`;
  if (!/^-?\d*$/.test(population)) return `an integer population in column 15, got ${JSON.stringify(population)}`;
  return {
    geonameId: Number(id),
    name,
    asciiName,
    alternateNames: alternates === "" ? [] : alternates.split(","),
    lat: Number(lat),
    lon: Number(lon),
    featureClass: fclass,
    featureCode: fcode,
    countryCode: cc,
    cc2,
    admin1: a1,
    admin2: a2,
    admin3: a3,
    admin4: a4,
    population: Math.max(0, Number(population || 0)),
    elevation,
    dem,
    timezone,
    modified,
  };
}
