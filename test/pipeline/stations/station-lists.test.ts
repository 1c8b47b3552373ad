/** Station list parsers on lines cut from the real NOAA and WMO lists. */
import { describe, expect, it } from "vitest";
import { DataFormatError } from "../../../datasets/common/errors.ts";
import { joinStationLists, parseDms, readNsdCccc, readWmoStations } from "../../../pipeline/stations/station-lists.ts";
import { fixture } from "./fixtures.ts";

describe("station lists", () => {
  it("reads DD-MM[-SS]H coordinates (south and west negative)", () => {
    expect(parseDms("09-25S")).toBeCloseTo(-(9 + 25 / 60), 5);
    expect(parseDms("160-03E")).toBeCloseTo(160.05, 5);
    expect(parseDms("097-54-10W")).toBeCloseTo(-(97 + 54 / 60 + 10 / 3600), 4);
    expect(parseDms("37-37-02")).toBeUndefined();
  });

  it("reads nsd_cccc lines: WMO index from block + number, none for --/---", () => {
    const { stations } = readNsdCccc(fixture("nsd_cccc-excerpt.txt"), "nsd_cccc-excerpt.txt");
    expect(stations[0]).toMatchObject({ icao: "AGGH", wmo: "91520", name: "Honiara / Henderson", country: "Solomon Islands", elevation: 8 });
    expect(stations.find((s) => s.icao === "K96D")).toMatchObject({ wmo: null, country: "United States", elevation: 290 });
    expect(stations.find((s) => s.icao === "EGLL")).toMatchObject({ wmo: "03772", country: "United Kingdom" });
    // PABL is listed with block 00, number 000: a placeholder, not a WMO index.
    expect(stations.find((s) => s.icao === "PABL")).toMatchObject({ wmo: null, name: "Buckland, Buckland Airport" });
  });

  it("reads the WMO list with zero-padded indexes and joins it (NOAA wins, WMO-only stations added)", async () => {
    const wmo = (await readWmoStations(fixture("wmo_stations-excerpt.csv"), "wmo_stations-excerpt.csv")).stations;
    expect(wmo.find((s) => s.wmo === "01001")).toMatchObject({ latitude: 70.93, longitude: -8.67, elevation: 10, name: "JAN MAYEN (1001-0)" });
    // The WMO list has 78310 west of Greenwich (the Cuban station_list.csv's positive longitude is wrong).
    expect(wmo.find((s) => s.wmo === "78310")).toMatchObject({ longitude: -84.95, name: "CABO SAN ANTONIO, PINAR DEL RIO" });
    const noaa = readNsdCccc(fixture("nsd_cccc-excerpt.txt"), "x").stations;
    const joined = joinStationLists(noaa, wmo);
    expect(joined.filter((s) => s.wmo === "03772")).toHaveLength(1);
    expect(joined.find((s) => s.wmo === "87582")).toMatchObject({ icao: null, country: null, latitude: -34.56 });
  });

  it("names the file and line of a malformed line", async () => {
    expect(() => readNsdCccc("AGGH|91|520\n", "nsd.txt")).toThrow(DataFormatError);
    expect(() => readNsdCccc("AGGH|91|520\n", "nsd.txt")).toThrow(/nsd\.txt, line 1/);
    await expect(readWmoStations("index,lat\n", "w.csv")).rejects.toThrow(/w\.csv, line 1, field column 1: expected wmo_index/);
    // A bad index on the third line of a real excerpt (header, one good row, then the bad one).
    const [head, first] = fixture("wmo_stations-excerpt.csv").split("\n");
    await expect(readWmoStations(`${head}\n${first}\nx1001,70.93,-8.67,10,,,JAN MAYEN\n`, "w.csv")).rejects.toThrow(/w\.csv, line 3, field wmo_index/);
    // An unterminated quote: fast-csv's error, with the file and the line the record starts on.
    await expect(readWmoStations(`${head}\n${first}\n"01001,70.93\n`, "w.csv")).rejects.toThrow(/w\.csv, line 3/);
  });
});
