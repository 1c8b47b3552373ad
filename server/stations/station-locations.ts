/**
 * Where the reporting stations are, for the weather answers' local data: the stations of the
 * station lists with coordinates and a height that have observations, indexed by 1° cell. A point
 * asks for the stations within 25 km and 300 m of height; a slot then takes the nearest of them
 * with an observation within 30 minutes of its valid time.
 */
import type { ObservationKind } from "../../datasets/stations/record.ts";
import type { StationSeries } from "./station-store.ts";
import { finishNow, type Work } from "../../datasets/common/work.ts";

/** The stations table's rows with coordinates (datasets/stations/schema.ts, CREATE_STATIONS). */
export const SELECT_STATION_LOCATIONS = "SELECT icao, wmo, latitude, longitude, elevation FROM stations WHERE latitude IS NOT NULL AND longitude IS NOT NULL AND elevation IS NOT NULL";

export const LOCAL_RADIUS_KM = 25;
export const LOCAL_HEIGHT_M = 300;
export const LOCAL_TIME_S = 30 * 60;
const EARTH_RADIUS_KM = 6371.0088;

export interface LocatedStation {
  kind: ObservationKind;
  id: string;
  lat: number;
  lon: number;
  elevation: number;
  series: StationSeries;
}

/** Great-circle distance in km (haversine, mean Earth radius). */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

const cellKey = (latCell: number, lonCell: number): number => (latCell + 90) * 360 + (((lonCell % 360) + 360) % 360);

export class StationLocator {
  private readonly cells = new Map<number, LocatedStation[]>();

  constructor(stations: readonly LocatedStation[]) {
    for (const s of stations) {
      const key = cellKey(Math.floor(s.lat), Math.floor(s.lon));
      const list = this.cells.get(key);
      if (list) list.push(s);
      else this.cells.set(key, [s]);
    }
  }

  /** From the stations table's rows (icao, wmo, lat, lon, elevation): those with observations. */
  static fromRows(rows: readonly (readonly unknown[])[], series: Readonly<Record<ObservationKind, ReadonlyMap<string, StationSeries>>>): StationLocator {
    return finishNow(StationLocator.build(rows, series));
  }

  /** fromRows as work that yields between blocks of rows (datasets/common/work.ts). */
  static *build(rows: readonly (readonly unknown[])[], series: Readonly<Record<ObservationKind, ReadonlyMap<string, StationSeries>>>): Work<StationLocator> {
    const located: LocatedStation[] = [];
    for (const [i, [icao, wmo, lat, lon, elevation]] of rows.entries()) {
      if ((i & 1023) === 1023) yield;
      const place = { lat: Number(lat), lon: Number(lon), elevation: Number(elevation) };
      const metar = typeof icao === "string" ? series.METAR.get(icao) : undefined;
      const synop = typeof wmo === "string" ? series.SYNOP.get(wmo) : undefined;
      if (metar) located.push({ kind: "METAR", id: icao as string, series: metar, ...place });
      if (synop) located.push({ kind: "SYNOP", id: wmo as string, series: synop, ...place });
    }
    return new StationLocator(located);
  }

  /** Stations within 25 km and 300 m of height of the point, nearest first. */
  near(lat: number, lon: number, heightM: number): LocatedStation[] {
    const found: { s: LocatedStation; d: number }[] = [];
    const latCell = Math.floor(lat);
    const cos = Math.max(0.01, Math.cos((lat * Math.PI) / 180));
    const lonSpan = Math.min(180, Math.ceil(LOCAL_RADIUS_KM / (111.19 * cos)));
    for (let dj = -1; dj <= 1; dj++) {
      const j = latCell + dj;
      if (j < -90 || j > 89) continue;
      for (let di = -lonSpan; di <= lonSpan; di++) {
        for (const s of this.cells.get(cellKey(j, Math.floor(lon) + di)) ?? []) {
          if (Math.abs(s.elevation - heightM) > LOCAL_HEIGHT_M) continue;
          const d = distanceKm(lat, lon, s.lat, s.lon);
          if (d <= LOCAL_RADIUS_KM) found.push({ s, d });
        }
      }
    }
    return found.sort((a, b) => a.d - b.d || (a.s.id < b.s.id ? -1 : 1)).map((f) => f.s);
  }
}

/** Index of the observation nearest `t` (UNIX seconds) within ±30 minutes, or -1. */
export function observationNear(series: StationSeries, t: number): number {
  const ts = series.timestamps;
  let lo = 0;
  let hi = ts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  let best = -1;
  let bestGap = LOCAL_TIME_S + 1;
  for (const k of [lo - 1, lo]) {
    if (k < 0 || k >= ts.length) continue;
    const gap = Math.abs(ts[k]! - t);
    if (gap < bestGap) {
      best = k;
      bestGap = gap;
    }
  }
  return best;
}

/**
 * For a point (and its height from our DEM): at a slot's valid time, the nearest station within
 * 25 km and 300 m of height that reported within 30 minutes, with its observed cloud cover (percent)
 * when the report gives one. Undefined when the point's height is unknown (no height test possible)
 * or no station is near.
 */
export function localObservations(locator: StationLocator | undefined, lat: number, lon: number, heightM: number | undefined): ((validMs: number) => { station: string; cloudCover?: number } | undefined) | undefined {
  if (!locator || heightM === undefined) return undefined;
  const near = locator.near(lat, lon, heightM);
  if (near.length === 0) return undefined;
  return (validMs) => {
    for (const s of near) {
      const k = observationNear(s.series, validMs / 1000);
      if (k < 0) continue;
      const cover = s.series.cloudCover[k]!;
      return cover === cover ? { station: s.id, cloudCover: cover } : { station: s.id };
    }
    return undefined;
  };
}
