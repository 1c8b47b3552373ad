/**
 * A reporting station's observations of one family as the JSON text of the METAR and SYNOP
 * answers' family member: `{"message":null,"latest":{...},"history":{...}}`, written from the
 * series columns without record objects. The pipeline stores this text for every reporting
 * station in stations.idx (FORMAT.md, "Answers"), so that the server reads an answer where it
 * lies instead of writing 20-30 KB of JSON a request; the server writes it too for a store held
 * in memory (tests). The text is the one JSON.stringify gives for the record objects of
 * server/stations/station-store.ts recordAt, in its member order (tested on every station of the
 * embedded default).
 */
import { jsonNumber } from "../common/json-number.ts";
import type { StationSeries } from "./series.ts";

/**
 * The family member's text for a series of at least one record. History keys are timestamps,
 * whole UNIX seconds: ascending, a repeated one keeping its last record (as an object's keys do).
 */
export function familyJson(s: StationSeries): string {
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
  return `{"message":null,"latest":${recordJson(s, t.length - 1, jsonNumber(t[t.length - 1]!))},"history":{${history}}}`;
}

/** The record at index i (its timestamp's text given), members in recordAt's order. */
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
