/**
 * The observations' JSON against the object form built here from the store's record objects (the
 * series columns, through recordAt; JSON.stringify as the independent reference): for every
 * station of the embedded default that has observations (METAR and SYNOP), the answer text the
 * pipeline stored in stations.idx inside `{"<kind>":...}` is JSON.stringify(observationsContent(...))
 * byte for byte; likewise for a known station without observations, and an unknown one is the same
 * 404. A real station's series with its records reordered and one repeated, in a store held in
 * memory (the text written at the request), checks the history's key order (ascending) and that a
 * repeated timestamp keeps its last record, as JSON.stringify of the object gives them.
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DATASETS } from "../../../datasets/catalog.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import type { ObservationKind } from "../../../datasets/stations/record.ts";
import { ApiError } from "../../../server/api/api-error.ts";
import { loadStations } from "../../../server/stations/load-stations.ts";
import type { StationObservationRecord } from "../../../datasets/stations/record.ts";
import { errors } from "../../../server/api/api-error.ts";
import { noObservationMessage, observationsJson, observationsText } from "../../../server/stations/observations-content.ts";
import { StationStore, emptySeries, recordAt, type StationSeries } from "../../../server/stations/station-store.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { thrown } from "../../helpers/thrown.ts";

let store: StationStore;
beforeAll(async () => {
  const dataDir = await defaultDatasetDir("stations");
  const config = readConfig({ GEODATA_DATA_DIR: dataDir });
  store = (await loadStations({ file: path.join(dataDir, DATASETS.stations.file), dataDir, spec: DATASETS.stations, config, logger: silentLogger })).value;
}, 600_000);

/** The content's text, as the file's bytes or as written in memory. */
function text(store: StationStore, kind: ObservationKind, id: string): string {
  return observationsText(observationsJson(store, kind, id));
}

/**
 * The object form the JSON text must equal once stringified: the spec's members built from the
 * store's record objects (recordAt), as the decisions say: message null with observations,
 * latest and history null without; an unknown station a 404.
 */
function observationsContent(store: StationStore, kind: ObservationKind, id: string): Record<string, unknown> {
  const found = store.lookup(kind, id);
  if (!found.known) throw errors.notFound(`No ${kind} station with ${kind === "METAR" ? "ICAO identifier" : "WMO index"} '${id}' is known.`);
  const s = found.series;
  if (!s || s.timestamps.length === 0) return { [kind]: { message: noObservationMessage(kind, id), latest: null, history: null } };
  const history: Record<string, StationObservationRecord> = {};
  for (let i = 0; i < s.timestamps.length; i++) history[String(s.timestamps[i])] = recordAt(s, i);
  return { [kind]: { message: null, latest: recordAt(s, s.timestamps.length - 1), history } };
}

describe("observationsJson", () => {
  for (const kind of ["METAR", "SYNOP"] as ObservationKind[]) {
    it(`equals JSON.stringify of the object form for every ${kind} station with observations`, () => {
      const ids = [...store.reporting(kind)];
      expect(ids.length).toBeGreaterThan(100);
      for (const id of ids) expect(text(store, kind, id), id).toBe(JSON.stringify(observationsContent(store, kind, id)));
    });
  }

  it("a known station without observations gives the message form; an unknown one the same 404", () => {
    const quiet = new StationStore({ METAR: new Set(["EDDF"]), SYNOP: new Set() }, { METAR: new Map(), SYNOP: new Map() });
    expect(text(quiet, "METAR", "EDDF")).toBe(JSON.stringify(observationsContent(quiet, "METAR", "EDDF")));
    expect(JSON.parse(text(quiet, "METAR", "EDDF")).METAR.history).toBeNull();
    const err = thrown(() => text(quiet, "METAR", "KJFK"));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toEqual(thrown(() => observationsContent(quiet, "METAR", "KJFK")));
  });

  it("orders the history as JSON.stringify does: ascending keys, a repeated timestamp keeps its last record", () => {
    const [id, real] = [...store.reporting("SYNOP")].map((k) => [k, store.lookup("SYNOP", k).series!] as const).find(([, s]) => s.timestamps.length >= 4)!;
    // The station's records in the order 2, 0, 3, 1, 2 (index 2 twice, the second copy with the
    // temperature of record 3).
    const order = [2, 0, 3, 1, 2];
    const s: StationSeries = emptySeries(order.length);
    order.forEach((from, to) => {
      for (const key of Object.keys(s) as (keyof StationSeries)[]) (s[key] as unknown as unknown[])[to] = (real[key] as unknown as unknown[])[from];
    });
    s.temperature[4] = real.temperature[3]!;
    const shuffled = new StationStore({ METAR: new Set(), SYNOP: new Set([id]) }, { METAR: new Map(), SYNOP: new Map([[id, s]]) });
    const json = text(shuffled, "SYNOP", id);
    expect(json).toBe(JSON.stringify(observationsContent(shuffled, "SYNOP", id)));
    const history = JSON.parse(json).SYNOP.history as Record<string, { temperature?: number }>;
    expect(Object.keys(history).map(Number)).toEqual([0, 1, 2, 3].map((k) => real.timestamps[k]));
    expect(history[String(real.timestamps[2])]!.temperature).toBe(Number.isNaN(real.temperature[3]!) ? undefined : real.temperature[3]);
  });
});
