/**
 * Realistic request mixes for the http bench, drawn with a seeded PRNG (mulberry32) so every run
 * sends the same requests: land points (real GeoNames places of the embedded cities500 dump,
 * moved by up to ±0.05°), the stations that have observations in the built stations artifact,
 * real place names (whole, prefixes of 3+ characters, and "name, country" forms) and GeoNames ids.
 */
import { DuckDBInstance } from "@duckdb/node-api";
import path from "node:path";
import { createInterface } from "node:readline";
import { DATASETS } from "../datasets/catalog.ts";
import { EMBEDDED_DIR } from "../datasets/common/paths.ts";
import { mulberry32 } from "../datasets/common/prng.ts";
import { listZipEntries, openZipEntry } from "../pipeline/common/zip.ts";
import { locateDataset } from "../datasets/releases/locate.ts";

export interface Place {
  id: number;
  name: string;
  lat: number;
  lon: number;
  country: string;
}

/** Every row of datasets/embedded/geonames/cities500.zip (GeoNames "geoname" table columns). */
export async function readPlaces(): Promise<Place[]> {
  const file = path.join(EMBEDDED_DIR, "geonames", "cities500.zip");
  const entry = (await listZipEntries(file)).find((e) => e.name.endsWith(".txt"));
  if (!entry) throw new Error(`${file}: expected a .txt entry, got none`);
  const out: Place[] = [];
  for await (const line of createInterface({ input: await openZipEntry(file, entry), crlfDelay: Infinity })) {
    const c = line.split("\t");
    if (c.length < 15) continue;
    out.push({ id: Number(c[0]), name: c[1]!, lat: Number(c[4]), lon: Number(c[5]), country: c[8]! });
  }
  return out;
}

/** Station identifiers with at least one observation in the stations artifact under dataDir (its current release, if any). */
export async function reportingStations(dataDir: string): Promise<{ METAR: string[]; SYNOP: string[] }> {
  const instance = await DuckDBInstance.create(path.join((await locateDataset(dataDir, "stations")).dir, DATASETS.stations.file), { access_mode: "READ_ONLY" });
  try {
    const conn = await instance.connect();
    try {
      const rows = (await conn.runAndReadAll("SELECT DISTINCT kind, station FROM observations ORDER BY kind, station")).getRows() as [string, string][];
      return { METAR: rows.filter((r) => r[0] === "METAR").map((r) => r[1]), SYNOP: rows.filter((r) => r[0] === "SYNOP").map((r) => r[1]) };
    } finally {
      conn.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

/** The hourly variables of the /v1/forecast mixes. */
const OPEN_METEO_HOURLY = "temperature_2m,relative_humidity_2m,precipitation,wind_speed_10m,cloud_cover";

export interface Mix {
  name: string;
  /** Request targets (path and query), sent in turn, cycling. */
  paths: string[];
}

/** The bench's own seed and mix size; `--seed` and `--mix-size` draw other mixes of the same kinds. */
export const DEFAULT_SEED = 20261123;
export const DEFAULT_MIX_SIZE = 4096;

export function buildMixes(places: readonly Place[], stations: { METAR: string[]; SYNOP: string[] }, seed = DEFAULT_SEED, size = DEFAULT_MIX_SIZE): Mix[] {
  const random = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const times = (f: () => string): string[] => Array.from({ length: size }, f);
  const point = (): string => {
    const p = pick(places);
    const lat = Math.max(-90, Math.min(90, p.lat + (random() - 0.5) * 0.1));
    const lon = Math.max(-180, Math.min(180, p.lon + (random() - 0.5) * 0.1));
    return `lat=${lat.toFixed(4)}&lon=${lon.toFixed(4)}`;
  };
  /** `latitude=..&longitude=..` of n land points (Open-Meteo's comma-separated lists). */
  const openMeteoPoints = (n: number): string => {
    const pts = Array.from({ length: n }, () => {
      const p = pick(places);
      return [Math.max(-90, Math.min(90, p.lat + (random() - 0.5) * 0.1)).toFixed(4), Math.max(-180, Math.min(180, p.lon + (random() - 0.5) * 0.1)).toFixed(4)];
    });
    return `latitude=${pts.map((p) => p[0]).join(",")}&longitude=${pts.map((p) => p[1]).join(",")}`;
  };
  const searchText = (): string => {
    const p = pick(places);
    const r = random();
    if (r < 0.6) return p.name;
    if (r < 0.85) return p.name.slice(0, 3 + Math.floor(random() * Math.max(1, p.name.length - 3)));
    return `${p.name}, ${p.country}`;
  };
  return [
    { name: "elevation", paths: times(() => `/elevation/point/2/json?${point()}`) },
    { name: "reverse", paths: times(() => `/geocode/reverse/2/json?${point()}`) },
    { name: "search", paths: times(() => `/geocode/search/2/json?q=${encodeURIComponent(searchText())}`) },
    { name: "id", paths: times(() => `/geocode/id/2/json?id=gn:${pick(places).id}`) },
    { name: "METAR", paths: times(() => `/weather/METAR/2/json?id=${pick(stations.METAR)}`) },
    { name: "SYNOP", paths: times(() => `/weather/SYNOP/2/json?id=${pick(stations.SYNOP)}`) },
    { name: "weather point", paths: times(() => `/weather/point/2/json?${point()}`) },
    { name: "weather id", paths: times(() => `/weather/id/2/json?id=gn:${pick(places).id}`) },
    // Open-Meteo's forecast API (docs/compatibility.md): 7 days of 5 hourly variables, JSON, for 1 point and for 100.
    { name: "v1/forecast 1 point", paths: times(() => `/v1/forecast?${openMeteoPoints(1)}&hourly=${OPEN_METEO_HOURLY}&forecast_days=7`) },
    { name: "v1/forecast 100 points", paths: Array.from({ length: Math.max(1, Math.ceil(size / 64)) }, () => `/v1/forecast?${openMeteoPoints(100)}&hourly=${OPEN_METEO_HOURLY}&forecast_days=7`) },
    { name: "openapi.json", paths: ["/openapi.json"] },
  ];
}
