/**
 * The observations' JSON written from the store's columns against the object form built here
 * from the store's record objects (the one serializer against an independent reference): for every
 * station of the embedded default that has observations (METAR and SYNOP), observationsJson is
 * JSON.stringify(observationsContent(...)) byte for byte; likewise for a known station without
 * observations, and an unknown one is the same 404. A real station's series with its records
 * reordered and one repeated checks the history's key order (ascending) and that a repeated
 * timestamp keeps its last record, as JSON.stringify of the object gives them. The numbers' text
 * (whole numbers and tenths written from whole numbers) is JSON.stringify's on edge values and on
 * a seeded sweep.
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
import { jsonNumber, noObservationMessage, observationsJson } from "../../../server/stations/observations-content.ts";
import { StationStore, emptySeries, recordAt, type StationSeries } from "../../../server/stations/station-store.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { thrown } from "../../helpers/thrown.ts";
import { mulberry32 } from "../../../datasets/common/prng.ts";

let store: StationStore;
beforeAll(async () => {
  const dataDir = await defaultDatasetDir("stations");
  const config = readConfig({ GEODATA_DATA_DIR: dataDir });
  store = (await loadStations({ file: path.join(dataDir, DATASETS.stations.file), dataDir, spec: DATASETS.stations, config, logger: silentLogger })).value;
}, 600_000);

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
      for (const id of ids) expect(observationsJson(store, kind, id), id).toBe(JSON.stringify(observationsContent(store, kind, id)));
    });
  }

  it("a known station without observations gives the message form; an unknown one the same 404", () => {
    const quiet = new StationStore({ METAR: new Set(["EDDF"]), SYNOP: new Set() }, { METAR: new Map(), SYNOP: new Map() });
    expect(observationsJson(quiet, "METAR", "EDDF")).toBe(JSON.stringify(observationsContent(quiet, "METAR", "EDDF")));
    expect(JSON.parse(observationsJson(quiet, "METAR", "EDDF")).METAR.history).toBeNull();
    const err = thrown(() => observationsJson(quiet, "METAR", "KJFK"));
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
    const json = observationsJson(shuffled, "SYNOP", id);
    expect(json).toBe(JSON.stringify(observationsContent(shuffled, "SYNOP", id)));
    const history = JSON.parse(json).SYNOP.history as Record<string, { temperature?: number }>;
    expect(Object.keys(history).map(Number)).toEqual([0, 1, 2, 3].map((k) => real.timestamps[k]));
    expect(history[String(real.timestamps[2])]!.temperature).toBe(Number.isNaN(real.temperature[3]!) ? undefined : real.temperature[3]);
  });
});

describe("jsonNumber", () => {
  const edges = [0, -0, 1, -1, 0.5, -0.5, -0.05, 12.3, -12.3, 12.5, 87.5, 402.336, 0.1 + 0.2, 99_999_999.9, -99_999_999.9, 100_000_000, 1e9, 1_764_374_400, 1_764_300_000, 1_764_301_234, 1_764_300_005, 99_999_999_999_999, 1e14, 1e21, 5e-7, 2 ** 53, Infinity, NaN];
  it.each(edges.map((x) => [x]))("writes %s as JSON.stringify does", (x) => {
    expect(jsonNumber(x)).toBe(JSON.stringify(x));
  });

  it("writes whole numbers, tenths, hundredths and UNIX times as JSON.stringify does", () => {
    const random = mulberry32(20261129);
    const differing: string[] = [];
    for (let k = 0; k < 200_000; k++) {
      const magnitude = 10 ** Math.floor(random() * 11);
      const x = (random() - 0.5) * magnitude;
      for (const v of [Math.round(x), Math.round(x * 10) / 10, Math.round(x * 100) / 100, x]) {
        if (jsonNumber(v) !== JSON.stringify(v)) differing.push(`${JSON.stringify(v)} written ${jsonNumber(v)}`);
      }
    }
    expect(differing).toEqual([]);
  });
});
