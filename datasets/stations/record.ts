/**
 * The spec's station observation record (endpoints 3 and 4) and the units we chose for it.
 * The pipeline maps decoded METAR/SYNOP reports to this shape and stores its members as columns
 * (schema.ts); the server rebuilds the record from those columns. Wire names are the spec's.
 *
 * Units (the spec says "not shown"; decisions recorded in README "Station observations"):
 * - wid: WMO present weather ww, code table 4677, two digits as a string ("61").
 * - visibility: metres. temperature: degrees Celsius. cloudCover: percent of sky (octas x 12.5).
 * - cloudTypes: WMO code figures of CL (0513), CM (0515), CH (0509), SYNOP only.
 * - precipitation: mm over the period the report states; precipitationConvective: mm of it that
 *   fell as showers or thunderstorms (0 when the precipitation was not convective).
 * - timestamp: UNIX seconds (UTC) of the observation.
 */

export interface CloudTypes {
  cloudHigh?: number;
  cloudMiddle?: number;
  cloudLow?: number;
}

export interface StationObservationRecord {
  wid?: string;
  visibility?: number;
  temperature?: number;
  cloudCover?: number;
  cloudTypes?: CloudTypes;
  precipitation?: number;
  precipitationConvective?: number;
  timestamp: number;
}

/** The two report families the service serves, one endpoint each. */
export type ObservationKind = "METAR" | "SYNOP";

/** What one stored observation is: the record plus what identifies and explains it. */
export interface StoredObservation {
  kind: ObservationKind;
  /** ICAO identifier (METAR) or five-digit WMO index (SYNOP). */
  station: string;
  record: StationObservationRecord;
  /** METAR, SPECI or AAXX. */
  reportType: string;
  /** The correction indicator as given (COR, CCA, CCB, ...), empty for an original report. */
  correction: string;
  /** The report as received (whitespace normalised). */
  raw: string;
  /** Where it came from: source file name (and line). */
  source: string;
  /** Groups the decoder could not read, as JSON text (`[{group, offset, reason}]`). */
  unread: string;
}

/** cloudCover from octas, per our decision (okta 9 "sky obscured" counts as fully covered). */
export function octasToPercent(octas: number): number {
  return Math.min(octas, 8) * 12.5;
}
