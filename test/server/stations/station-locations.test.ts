/**
 * Local data of the weather answers: the stations near a point (25 km, 300 m of height) and the
 * observation nearest a slot (within 30 minutes), on the embedded stations dataset. Station
 * coordinates and heights are NOAA's (nsd_cccc); observation times are the reports'.
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DATASETS } from "../../../datasets/catalog.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { distanceKm, localObservations, observationNear, type StationLocator } from "../../../server/stations/station-locations.ts";
import { loadStations } from "../../../server/stations/load-stations.ts";
import type { StationStore } from "../../../server/stations/station-store.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";

let store: StationStore;
let locator: StationLocator;
beforeAll(async () => {
  const dataDir = await defaultDatasetDir("stations");
  const config = readConfig({ GEODATA_DATA_DIR: dataDir });
  const loaded = await loadStations({ file: path.join(dataDir, DATASETS.stations.file), dataDir, spec: DATASETS.stations, config, logger: silentLogger });
  store = loaded.value;
  locator = store.locator!;
}, 600_000);

describe("stations near a point", () => {
  it("distance: one degree of latitude is 111.2 km on the mean sphere", () => {
    expect(distanceKm(0, 0, 1, 0)).toBeCloseTo(111.19, 1);
    expect(distanceKm(51.4700, -0.4543, 40.6398, -73.7789)).toBeCloseTo(5540, -1); // LHR-JFK great circle
  });

  it("JFK's own point finds KJFK first; LaGuardia (17 km) is also near", () => {
    const near = locator.near(40.6398, -73.7789, 4).map((s) => s.id);
    expect(near[0]).toBe("KJFK");
    expect(near).toContain("KLGA");
    for (const s of locator.near(40.6398, -73.7789, 4)) expect(distanceKm(40.6398, -73.7789, s.lat, s.lon)).toBeLessThanOrEqual(25);
  });

  it("a point 400 m above the stations' heights finds none of them", () => {
    expect(locator.near(40.6398, -73.7789, 410).map((s) => s.id)).not.toContain("KJFK");
  });

  it("a slot takes the nearest station's observation within 30 minutes, with its cloud cover", () => {
    const jfk = store.lookup("METAR", "KJFK").series!;
    const k = jfk.timestamps.length - 1;
    const t = jfk.timestamps[k]!;
    const local = localObservations(locator, 40.6398, -73.7789, 4)!;
    const at = local((t + 10 * 60) * 1000)!;
    expect(at.station).toBe("KJFK");
    if (!Number.isNaN(jfk.cloudCover[k]!)) expect(at.cloudCover).toBe(jfk.cloudCover[k]);
    expect(observationNear(jfk, t + 29 * 60)).toBe(k);
    expect(observationNear(jfk, t + 31 * 60)).toBe(-1);
    // Two days after every report of the area: nothing near in time.
    expect(local((t + 2 * 86_400) * 1000)).toBeUndefined();
  });

  it("no height, no local data (the 300 m test cannot be made)", () => {
    expect(localObservations(locator, 40.6398, -73.7789, undefined)).toBeUndefined();
  });
});
