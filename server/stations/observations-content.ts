/**
 * The content of endpoints 3 and 4: `{ METAR | SYNOP: { message, latest, history } }`, a pure
 * function of the station id and the loaded store. Shared decisions (README "Station observations"):
 * all three members are always present; `message` is null when there are observations, and
 * `latest`/`history` are null when there are none.
 */
import type { ObservationKind } from "../../datasets/stations/record.ts";
import { errors } from "../api/api-error.ts";
import type { StationStore } from "./station-store.ts";

const NAMES: Record<ObservationKind, string> = { METAR: "ICAO identifier", SYNOP: "WMO index" };

export function noObservationMessage(kind: ObservationKind, id: string): string {
  return `No ${kind} observation of station ${id} is available in the current data.`;
}

/**
 * The content as JSON: the station's answer text as the stations file holds it (written by the
 * pipeline, datasets/stations/observations-json.ts) inside `{"<kind>":...}`, as pieces the wire
 * layer copies into the body at once (the answer is a view of the directory's scratch buffer), so
 * that a request writes no observation; the message form for a known station without
 * observations; a 404 for an unknown one.
 */
export function observationsJson(store: StationStore, kind: ObservationKind, id: string): string | readonly Uint8Array[] {
  const answer = store.answer(kind, id);
  if (answer === undefined) {
    if (!store.lookup(kind, id).known) throw errors.notFound(`No ${kind} station with ${NAMES[kind]} '${id}' is known.`);
    return `{"${kind}":{"message":${JSON.stringify(noObservationMessage(kind, id))},"latest":null,"history":null}}`;
  }
  if (typeof answer === "string") return `{"${kind}":${answer}}`;
  return [kind === "METAR" ? METAR_OPEN : SYNOP_OPEN, answer, CLOSE];
}

/** The content's whole text, from either form observationsJson returns (tests, benches, tools). */
export function observationsText(json: string | readonly Uint8Array[]): string {
  return typeof json === "string" ? json : Buffer.concat(json).toString("utf8");
}

const METAR_OPEN = Buffer.from(`{"METAR":`, "latin1");
const SYNOP_OPEN = Buffer.from(`{"SYNOP":`, "latin1");
const CLOSE = Buffer.from("}", "latin1");

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
