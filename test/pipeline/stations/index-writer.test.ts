/**
 * stations.idx as the `stations` step writes it from its DuckDB database, on real fixture files:
 * every observation of the database (read with SQL, an independent reader) is in its station's
 * series, column for column; two records against values read off the raw reports by hand (FM 12:
 * 87582 of the OGIMET file of 2026-03, 15280 of the Romanian bulletin corrected by CCB); listed
 * stations without reports are known without a series; the located stations are those with
 * coordinates, height and observations, in their 1° cell. A build with no reports gives an index
 * that opens and serves the "no observation" answer.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATASETS } from "../../../datasets/catalog.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { cellKey } from "../../../datasets/stations/located-stations.ts";
import type { ObservationKind } from "../../../datasets/stations/record.ts";
import { openStationsFile, type StationsIndex } from "../../../datasets/stations/stations-file.ts";
import { stationsStep } from "../../../pipeline/stations/step.ts";
import { loadStations } from "../../../server/stations/load-stations.ts";
import { observationsJson, observationsText } from "../../../server/stations/observations-content.ts";
import { query } from "./database.ts";
import { FIXTURES } from "./fixtures.ts";

const work = await fs.mkdtemp(path.join(os.tmpdir(), "stations-index-"));
const lists = ["--noaa", path.join(FIXTURES, "nsd_cccc-excerpt.txt"), "--wmo", path.join(FIXTURES, "wmo_stations-excerpt.csv")];
const reports = [
  "A_SMRO01YRBK171800_C_EDZW_20230117180502_51662689.txt",
  "A_SMRO01YRBK171800CCB_C_EDZW_20230118055302_52230688.txt",
  "ogimet-argentina-2026-03-excerpt.txt",
  "aviationweather-breakers.csv",
].map((f) => path.join(FIXTURES, f));

async function build(dir: string, args: string[]): Promise<StationsIndex> {
  await stationsStep.run(args, { config: readConfig({ GEODATA_DATA_DIR: dir }), logger: silentLogger });
  return openStationsFile(path.join(dir, DATASETS.stations.servedFile!)).index;
}

const full = path.join(work, "full");
let index: StationsIndex;
beforeAll(async () => {
  index = await build(full, [...lists, ...reports]);
}, 120_000);

afterAll(async () => {
  index?.close();
  await fs.rm(work, { recursive: true, force: true });
});

describe("stations.idx from the step's database", () => {
  it("holds every observation of the database in its station's series, column for column", async () => {
    const rows = await query(full, `SELECT kind, station, timestamp, wid, visibility, temperature, cloud_cover, cloud_high, cloud_middle, cloud_low,
      precipitation, precipitation_convective FROM observations ORDER BY kind, station, timestamp`);
    expect(rows.length).toBeGreaterThan(20);
    const position = new Map<string, number>();
    for (const [kind, station, ts, wid, vis, temp, cover, ch, cm, cl, precip, conv] of rows) {
      const key = `${kind} ${station}`;
      const i = position.get(key) ?? 0;
      position.set(key, i + 1);
      const s = index.directories[kind as ObservationKind].get(station as string)!;
      const f = (v: unknown): number => (v === null ? NaN : Number(v));
      const code = (v: unknown): number => (v === null ? -1 : Number(v));
      expect([s.timestamps[i], s.wid[i], s.visibility[i], s.temperature[i], s.cloudCover[i], s.cloudHigh[i], s.cloudMiddle[i], s.cloudLow[i], s.precipitation[i], s.precipitationConvective[i]], key)
        .toEqual([Number(ts), wid, f(vis), f(temp), f(cover), code(ch), code(cm), code(cl), f(precip), f(conv)]);
    }
    for (const [key, n] of position) {
      const [kind, station] = key.split(" ") as [ObservationKind, string];
      expect(index.directories[kind].get(station)!.timestamps.length, key).toBe(n);
    }
    expect(index.directories.METAR.reportingCount + index.directories.SYNOP.reportingCount).toBe(position.size);
  });

  it("gives the records read off the raw reports", () => {
    // AAXX 10004 87582 32960 21215 10215 20157 ... 81036 333: iR 3 (0 mm), VV 60, N 2, 21.5 degC, CL 0 CM 3 CH 6.
    const aeroparque = index.directories.SYNOP.get("87582")!;
    const a = Array.from(aeroparque.timestamps).indexOf(Date.UTC(2026, 2, 10, 0) / 1000);
    expect(a).toBeGreaterThanOrEqual(0);
    expect([aeroparque.visibility[a], aeroparque.temperature[a], aeroparque.cloudCover[a], aeroparque.precipitation[a], aeroparque.wid[a]]).toEqual([10000, 21.5, 25, 0, null]);
    expect([aeroparque.cloudLow[a], aeroparque.cloudMiddle[a], aeroparque.cloudHigh[a]]).toEqual([0, 3, 6]);
    // 15280 01/90 92012 11041 ... 60002 74143 (the CCB correction): VV 90, N 9, -4.1 degC, ww 41, 0 mm.
    const romania = index.directories.SYNOP.get("15280")!;
    expect(Array.from(romania.timestamps)).toEqual([Date.UTC(2023, 0, 17, 18) / 1000]);
    expect([romania.visibility[0], romania.cloudCover[0], romania.temperature[0], romania.wid[0], romania.precipitation[0]]).toEqual([0, 100, -4.1, "41", 0]);
  });

  it("knows the listed stations without reports, and no station of neither list nor reports", () => {
    for (const id of ["EGLL", "AGGH", "K96D"]) {
      expect(index.directories.METAR.has(id), id).toBe(true);
      expect(index.directories.METAR.get(id), id).toBeUndefined();
    }
    expect(index.directories.SYNOP.has("01001")).toBe(true);
    expect(index.directories.SYNOP.has("99999")).toBe(false);
    expect(index.directories.METAR.has("ZZZZ")).toBe(false);
  });

  it("locates 87582 (WMO list: -34.56, -58.42, 6 m) in its 1° cell; listed stations without observations are not located", () => {
    const at = index.located;
    const [start, end] = at.cellRange(cellKey(-35, -59));
    const found = Array.from({ length: end - start }, (_, k) => start + k).find((k) => at.kind(k) === "SYNOP" && index.directories.SYNOP.idAt(at.entry(k)) === "87582");
    expect(found).toBeDefined();
    expect([at.lat(found!), at.lon(found!), at.elevation(found!)]).toEqual([-34.56, -58.42, 6]);
    for (let k = 0; k < at.count; k++) expect(index.directories[at.kind(k)].countAt(at.entry(k))).toBeGreaterThan(0);
    expect(at.cellRange(cellKey(51, -1))).toEqual([0, 0]); // Heathrow: listed, never reported here
  });

  it("a build with no reports opens and answers the listed stations with the no-observation message", async () => {
    const dir = path.join(work, "empty");
    const empty = await build(dir, lists);
    try {
      expect([empty.directories.METAR.reportingCount, empty.directories.SYNOP.reportingCount, empty.located.count]).toEqual([0, 0, 0]);
      expect(empty.directories.METAR.knownCount).toBe(8);
      expect(empty.directories.SYNOP.has("87582")).toBe(true);
    } finally {
      empty.close();
    }
    const loaded = await loadStations({ file: path.join(dir, DATASETS.stations.file), dataDir: dir, spec: DATASETS.stations, config: readConfig({ GEODATA_DATA_DIR: dir }), logger: silentLogger });
    try {
      expect(JSON.parse(observationsText(observationsJson(loaded.value, "SYNOP", "87582")))).toEqual({ SYNOP: { message: "No SYNOP observation of station 87582 is available in the current data.", latest: null, history: null } });
      expect([...loaded.value.reporting("METAR")]).toEqual([]);
      expect(loaded.value.locator!.near(-34.56, -58.42, 6)).toEqual([]);
    } finally {
      await loaded.close?.();
    }
  });
});
