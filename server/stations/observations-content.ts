/**
 * The content of endpoints 3 and 4: `{ METAR | SYNOP: { message, latest, history } }`, a pure
 * function of the station id and the loaded store. Shared decisions (README "Station observations"):
 * all three members are always present; `message` is null when there are observations, and
 * `latest`/`history` are null when there are none.
 */
import type { ObservationKind } from "../../datasets/stations/record.ts";
import { errors } from "../api/api-error.ts";
import type { StationSeries, StationStore } from "./station-store.ts";

const NAMES: Record<ObservationKind, string> = { METAR: "ICAO identifier", SYNOP: "WMO index" };

export function noObservationMessage(kind: ObservationKind, id: string): string {
  return `No ${kind} observation of station ${id} is available in the current data.`;
}

/**
 * The content as JSON text, written from the store's columns without record objects (building
 * and stringifying ~100 records of a SYNOP station took ~100 µs): the text JSON.stringify would
 * give for `{ [kind]: { message, latest, history } }` with records in recordAt's member order
 * (tested against that on every station of the embedded default).
 */
export function observationsJson(store: StationStore, kind: ObservationKind, id: string): string {
  const found = store.lookup(kind, id);
  if (!found.known) throw errors.notFound(`No ${kind} station with ${NAMES[kind]} '${id}' is known.`);
  const s = found.series;
  if (!s || s.timestamps.length === 0) return `{"${kind}":{"message":${JSON.stringify(noObservationMessage(kind, id))},"latest":null,"history":null}}`;
  // History keys are timestamps, whole UNIX seconds: ascending, a repeated one keeping its last record.
  const t = s.timestamps;
  let ascending = true;
  for (let i = 1; i < t.length && ascending; i++) ascending = t[i - 1]! < t[i]!;
  // The store keeps a station's records in time order, one per timestamp: then no sort is needed.
  const order = ascending ? undefined : Array.from(t.keys()).sort((a, b) => t[a]! - t[b]! || a - b);
  let history = "";
  for (let k = 0; k < t.length; k++) {
    const i = order === undefined ? k : order[k]!;
    if (order !== undefined && k + 1 < order.length && t[order[k + 1]!] === t[i]) continue;
    const time = jsonNumber(t[i]!);
    history += `${history === "" ? "" : ","}"${time}":${recordJson(s, i, time)}`;
  }
  return `{"${kind}":{"message":null,"latest":${recordJson(s, t.length - 1, jsonNumber(t[t.length - 1]!))},"history":{${history}}}}`;
}

/** A number as JSON.stringify writes it (NaN never reaches here: absent members are left out). */
export function jsonNumber(x: number): string {
  // Most values are whole or in tenths (degrees, mm, 12.5 % cloud steps): their text from whole
  // numbers, whose text V8 keeps cached, instead of the shortest-digits conversion of a double.
  const tenths = Math.round(x * 10);
  if (tenths / 10 === x && tenths > -1e9 && tenths < 1e9) {
    const whole = (tenths / 10) | 0;
    const digit = tenths - whole * 10;
    if (digit === 0) return String(whole);
    if (whole === 0) return digit < 0 ? `-0.${-digit}` : `0.${digit}`;
    return `${whole}.${digit < 0 ? -digit : digit}`;
  }
  return Number.isFinite(x) ? String(x) : "null";
}

/** JSON.stringify(recordAt(s, i)): the members in recordAt's order. */
function recordJson(s: StationSeries, i: number, time: string): string {
  let out = `{"timestamp":${time}`;
  const wid = s.wid[i];
  if (wid !== null && wid !== undefined) out += `,"wid":${JSON.stringify(wid)}`;
  if (!Number.isNaN(s.visibility[i]!)) out += `,"visibility":${jsonNumber(s.visibility[i]!)}`;
  if (!Number.isNaN(s.temperature[i]!)) out += `,"temperature":${jsonNumber(s.temperature[i]!)}`;
  if (!Number.isNaN(s.cloudCover[i]!)) out += `,"cloudCover":${jsonNumber(s.cloudCover[i]!)}`;
  const h = s.cloudHigh[i]!;
  const m = s.cloudMiddle[i]!;
  const l = s.cloudLow[i]!;
  if (h >= 0 || m >= 0 || l >= 0) {
    let types = h >= 0 ? `"cloudHigh":${h}` : "";
    if (m >= 0) types += `${types === "" ? "" : ","}"cloudMiddle":${m}`;
    if (l >= 0) types += `${types === "" ? "" : ","}"cloudLow":${l}`;
    out += `,"cloudTypes":{${types}}`;
  }
  if (!Number.isNaN(s.precipitation[i]!)) out += `,"precipitation":${jsonNumber(s.precipitation[i]!)}`;
  if (!Number.isNaN(s.precipitationConvective[i]!)) out += `,"precipitationConvective":${jsonNumber(s.precipitationConvective[i]!)}`;
  return out + "}";
}

/** JSON Schema of the station observation record (units per our decisions). */
export const RECORD_SCHEMA = {
  type: "object",
  required: ["timestamp"],
  description: "A station observation record. Members other than timestamp are present only when the report gives them.",
  properties: {
    wid: { type: "string", pattern: "^[0-9]{2}$", description: "Present weather: WMO ww, code table 4677, two digits. METAR weather groups are mapped to the nearest ww (the highest applicable code wins)." },
    visibility: { type: "number", description: "Horizontal visibility, metres (METAR prevailing visibility, 9999/CAVOK = 10000; SYNOP VV, lower bound of the code class)." },
    temperature: { type: "number", description: "Air temperature, degrees Celsius (tenths when the report gives them)." },
    cloudCover: { type: "number", description: "Total cloud cover, percent of sky: octas x 12.5. METAR: the largest layer (FEW 1.5, SCT 3.5, BKN 6, OVC 8 octas); VV = 100; SKC/CLR/NSC/NCD/CAVOK = 0." },
    cloudTypes: {
      type: "object",
      description: "SYNOP only: WMO code figures of the cloud types of 8NhCLCMCH. A member is absent when its figure is '/'.",
      properties: {
        cloudHigh: { type: "integer", minimum: 0, maximum: 9, description: "CH, code table 0509." },
        cloudMiddle: { type: "integer", minimum: 0, maximum: 9, description: "CM, code table 0515." },
        cloudLow: { type: "integer", minimum: 0, maximum: 9, description: "CL, code table 0513." },
      },
    },
    precipitation: { type: "number", description: "Precipitation, mm, over the period the report states (METAR: hourly P group; SYNOP: 6RRRtR of section 1, else section 3; 0 when iR = 3)." },
    precipitationConvective: { type: "number", description: "The part of precipitation that fell as showers or thunderstorms, mm (equal to precipitation or 0)." },
    timestamp: { type: "integer", description: "Observation time, UNIX seconds (UTC)." },
  },
} as const;

export function contentSchema(kind: ObservationKind): Record<string, unknown> {
  return {
    type: "object",
    required: [kind],
    properties: {
      [kind]: {
        type: "object",
        required: ["message", "latest", "history"],
        properties: {
          message: { type: ["string", "null"], description: "Set (and latest/history null) only when the station is known but has no observation." },
          latest: { oneOf: [RECORD_SCHEMA, { type: "null" }], description: "The newest observation." },
          history: {
            type: ["object", "null"],
            description: "Every retained observation (the latest included), keyed by its UNIX timestamp in seconds, oldest first.",
            additionalProperties: RECORD_SCHEMA,
          },
        },
      },
    },
  };
}
