/**
 * The truth of the relevance bench: GeoNames' own rows of the embedded dumps (cities500, then
 * cities15000 replacing rows with the same id, as the places pipeline merges them), in population
 * order (ties by GeoNames id), plus the English country names of countryInfo. Rows whose country
 * countryInfo does not know are left out, as the pipeline leaves them out of the index.
 */
import path from "node:path";
import { EMBEDDED_DIR } from "../../datasets/common/paths.ts";
import { foldName } from "../../datasets/places/fold.ts";
import { openSource, readLines } from "../../pipeline/common/source.ts";
import { parseGeonameLine, type GeonameRecord } from "../../pipeline/places/geoname-row.ts";

export interface GazetteerRow {
  id: number;
  name: string;
  ascii: string;
  alternates: string[];
  cc: string;
  /** GeoNames admin-1 code within the country ("08"), "" when none. */
  admin1: string;
  lat: number;
  lon: number;
  population: number;
  /** Position in population order over the whole gazetteer (0 = most populous). */
  rank: number;
  /** Folded own names (GeoNames name and ASCII name), deduplicated. */
  own: string[];
  inCities15000: boolean;
}

export interface Gazetteer {
  rows: GazetteerRow[];
  countryName: Map<string, string>;
}

type Unranked = Omit<GazetteerRow, "rank" | "own">;

export function rowOf(r: GeonameRecord, inCities15000: boolean): Unranked {
  return { id: r.geonameId, name: r.name, ascii: r.asciiName, alternates: r.alternateNames, cc: r.countryCode, admin1: r.admin1, lat: r.lat, lon: r.lon, population: r.population, inCities15000 };
}

/** The rows in population order (ties by GeoNames id), with their rank and folded own names. */
export function ranked(rows: Iterable<Unranked>): GazetteerRow[] {
  return [...rows]
    .sort((a, b) => b.population - a.population || a.id - b.id)
    .map((r, rank) => ({ ...r, rank, own: [...new Set([foldName(r.name), foldName(r.ascii)])] }));
}

async function readDump(file: string, into: Map<number, Unranked>, fromCities15000: boolean): Promise<void> {
  for await (const { line } of readLines((await openSource(path.join(EMBEDDED_DIR, "geonames", file))).stream)) {
    const r = parseGeonameLine(line);
    if (r === null || typeof r === "string") continue;
    into.set(r.geonameId, rowOf(r, fromCities15000));
  }
}

export async function loadGazetteer(): Promise<Gazetteer> {
  const countryName = new Map<string, string>();
  for await (const { line } of readLines((await openSource(path.join(EMBEDDED_DIR, "geonames", "countryInfo.txt.gz"))).stream)) {
    if (line.startsWith("#")) continue;
    const f = line.split("\t");
    if (f.length > 4) countryName.set(f[0]!, f[4]!);
  }
  const byId = new Map<number, Unranked>();
  await readDump("cities500.zip", byId, false);
  await readDump("cities15000.zip", byId, true);
  return { rows: ranked([...byId.values()].filter((r) => countryName.has(r.cc))), countryName };
}
