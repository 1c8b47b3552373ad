/**
 * Station observations in memory, built once at startup from the stations DuckDB artifact: one
 * column set (typed arrays) per station and report family, ordered by time, and the sets of
 * station identifiers we know. Requests read these; nothing touches DuckDB per request.
 */
import type { ObservationKind, StationObservationRecord } from "../../datasets/stations/record.ts";
import type { StationLocator } from "./station-locations.ts";

/** One station's observations of one family, columns ordered by timestamp (NaN / -1 = absent). */
export interface StationSeries {
  timestamps: Float64Array;
  wid: (string | null)[];
  visibility: Float64Array;
  temperature: Float64Array;
  cloudCover: Float64Array;
  cloudHigh: Int8Array;
  cloudMiddle: Int8Array;
  cloudLow: Int8Array;
  precipitation: Float64Array;
  precipitationConvective: Float64Array;
}

export function emptySeries(n: number): StationSeries {
  return {
    timestamps: new Float64Array(n),
    wid: new Array<string | null>(n).fill(null),
    visibility: new Float64Array(n).fill(NaN),
    temperature: new Float64Array(n).fill(NaN),
    cloudCover: new Float64Array(n).fill(NaN),
    cloudHigh: new Int8Array(n).fill(-1),
    cloudMiddle: new Int8Array(n).fill(-1),
    cloudLow: new Int8Array(n).fill(-1),
    precipitation: new Float64Array(n).fill(NaN),
    precipitationConvective: new Float64Array(n).fill(NaN),
  };
}

/** The record at index i, with only the members the report gave. */
export function recordAt(s: StationSeries, i: number): StationObservationRecord {
  const rec: StationObservationRecord = { timestamp: s.timestamps[i]! };
  const wid = s.wid[i];
  if (wid !== null && wid !== undefined) rec.wid = wid;
  if (!Number.isNaN(s.visibility[i]!)) rec.visibility = s.visibility[i]!;
  if (!Number.isNaN(s.temperature[i]!)) rec.temperature = s.temperature[i]!;
  if (!Number.isNaN(s.cloudCover[i]!)) rec.cloudCover = s.cloudCover[i]!;
  const h = s.cloudHigh[i]!;
  const m = s.cloudMiddle[i]!;
  const l = s.cloudLow[i]!;
  if (h >= 0 || m >= 0 || l >= 0) {
    rec.cloudTypes = {};
    if (h >= 0) rec.cloudTypes.cloudHigh = h;
    if (m >= 0) rec.cloudTypes.cloudMiddle = m;
    if (l >= 0) rec.cloudTypes.cloudLow = l;
  }
  if (!Number.isNaN(s.precipitation[i]!)) rec.precipitation = s.precipitation[i]!;
  if (!Number.isNaN(s.precipitationConvective[i]!)) rec.precipitationConvective = s.precipitationConvective[i]!;
  return rec;
}

export interface StationLookup {
  /** The station is in our lists or has reported. */
  known: boolean;
  series?: StationSeries;
}

export class StationStore {
  constructor(
    private readonly known: Readonly<Record<ObservationKind, ReadonlySet<string>>>,
    private readonly series: Readonly<Record<ObservationKind, ReadonlyMap<string, StationSeries>>>,
    /** Where the reporting stations are (the weather answers' local data). */
    readonly locator?: StationLocator,
  ) {}

  /** The stations of a family with at least one observation. */
  reporting(kind: ObservationKind): IterableIterator<string> {
    return this.series[kind].keys();
  }

  /** `id` is an upper-case ICAO identifier (METAR) or a five-digit WMO index (SYNOP). */
  lookup(kind: ObservationKind, id: string): StationLookup {
    const series = this.series[kind].get(id);
    if (series) return { known: true, series };
    return { known: this.known[kind].has(id) };
  }

  get stationCount(): Record<ObservationKind, number> {
    return { METAR: this.known.METAR.size, SYNOP: this.known.SYNOP.size };
  }

  get reportingCount(): Record<ObservationKind, number> {
    return { METAR: this.series.METAR.size, SYNOP: this.series.SYNOP.size };
  }
}
