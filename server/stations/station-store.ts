/**
 * Station observations as the handlers see them: per report family, the stations we know and
 * each reporting station's series (columns ordered by time). The server's store reads them
 * where they lie in stations.idx (load-stations.ts: the directories of datasets/stations/); a
 * store over maps in memory serves tests the same way.
 */
import { familyJson } from "../../datasets/stations/observations-json.ts";
import type { ObservationKind, StationObservationRecord } from "../../datasets/stations/record.ts";
import type { StationSeries } from "../../datasets/stations/series.ts";
import type { StationLocator } from "./station-locations.ts";

export { emptySeries, type StationSeries } from "../../datasets/stations/series.ts";

/** The stations of a family we know (listed or reporting): a Set, or a directory of the file. */
export interface KnownStations {
  has(id: string): boolean;
  readonly size: number;
}

/**
 * The reporting stations' series: a Map, or a directory of the file (one read a lookup), which
 * also holds each station's answer text (`answer`, datasets/stations/observations-json.ts).
 */
export interface SeriesByStation {
  get(id: string): StationSeries | undefined;
  keys(): IterableIterator<string>;
  readonly size: number;
  answer?(id: string): Uint8Array | undefined;
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
    private readonly known: Readonly<Record<ObservationKind, KnownStations>>,
    private readonly series: Readonly<Record<ObservationKind, SeriesByStation>>,
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

  /**
   * The JSON text of the answer's family member, `{"message":null,"latest":...,"history":...}`,
   * of a station with observations: as the file holds it (bytes valid until the next answer of
   * the family: see StationDirectory.answerOf), or written from the series of a store in memory;
   * undefined for a station without observations.
   */
  answer(kind: ObservationKind, id: string): Uint8Array | string | undefined {
    const series = this.series[kind];
    if (series.answer) return series.answer(id);
    const s = series.get(id);
    return s && s.timestamps.length > 0 ? familyJson(s) : undefined;
  }

  get stationCount(): Record<ObservationKind, number> {
    return { METAR: this.known.METAR.size, SYNOP: this.known.SYNOP.size };
  }

  get reportingCount(): Record<ObservationKind, number> {
    return { METAR: this.series.METAR.size, SYNOP: this.series.SYNOP.size };
  }
}
