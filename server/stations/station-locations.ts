/**
 * Where the reporting stations are, for the weather answers' local data: the stations of the
 * station lists with coordinates and a height that have observations, grouped by 1° cell when
 * stations.idx was built (datasets/stations/located-stations.ts). A point asks for the stations
 * within 25 km and 300 m of height; a slot then takes the nearest of them with an observation
 * within 30 minutes of its valid time.
 */
import { DataFormatError } from "../../datasets/common/errors.ts";
import { cellKey, type LocatedStations } from "../../datasets/stations/located-stations.ts";
import type { ObservationKind } from "../../datasets/stations/record.ts";
import type { StationSeries } from "../../datasets/stations/series.ts";
import type { StationDirectory } from "../../datasets/stations/station-directory.ts";
import { firstAtLeast } from "../../datasets/common/first-at-least.ts";

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

export class StationLocator {
  constructor(
    private readonly located: LocatedStations,
    private readonly directories: Readonly<Record<ObservationKind, StationDirectory>>,
    file: string,
  ) {
    for (let k = 0; k < located.count; k++) {
      const kind = located.kind(k);
      const entry = located.entry(k);
      if (directories[kind].countAt(entry) === 0) throw new DataFormatError({ file, field: "located.ref" }, "located stations that have observations", `${kind} ${directories[kind].idAt(entry)} without any`);
    }
  }

  /** Stations within 25 km and 300 m of height of the point, nearest first (each one read of its series). */
  near(lat: number, lon: number, heightM: number): LocatedStation[] {
    const found: { k: number; id: string; d: number }[] = [];
    const at = this.located;
    const latCell = Math.floor(lat);
    const cos = Math.max(0.01, Math.cos((lat * Math.PI) / 180));
    const lonSpan = Math.min(180, Math.ceil(LOCAL_RADIUS_KM / (111.19 * cos)));
    for (let dj = -1; dj <= 1; dj++) {
      const j = latCell + dj;
      if (j < -90 || j > 89) continue;
      for (let di = -lonSpan; di <= lonSpan; di++) {
        const [start, end] = at.cellRange(cellKey(j, Math.floor(lon) + di));
        for (let k = start; k < end; k++) {
          if (Math.abs(at.elevation(k) - heightM) > LOCAL_HEIGHT_M) continue;
          const d = distanceKm(lat, lon, at.lat(k), at.lon(k));
          if (d <= LOCAL_RADIUS_KM) found.push({ k, id: this.directories[at.kind(k)].idAt(at.entry(k)), d });
        }
      }
    }
    return found
      .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1))
      .map(({ k, id }) => {
        const kind = at.kind(k);
        return { kind, id, lat: at.lat(k), lon: at.lon(k), elevation: at.elevation(k), series: this.directories[kind].seriesAt(at.entry(k))! };
      });
  }
}

/** Index of the observation nearest `t` (UNIX seconds) within ±30 minutes, or -1. */
export function observationNear(series: StationSeries, t: number): number {
  const ts = series.timestamps;
  const lo = firstAtLeast(ts, t);
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
