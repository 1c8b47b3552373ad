/** The nightly configuration: the checked-in file is valid; a bad one names the member, expected and got. */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { ConfigError } from "../../../datasets/common/errors.ts";
import { loadNightlyConfig, nightlyProfiles, parseNightlyConfig, profileConfigFile } from "../../../pipeline/nightly/config.ts";
import { parseNightlyArgs } from "../../../pipeline/nightly/command.ts";
import { checkSourceNames } from "../../../pipeline/nightly/dataset-args.ts";
import { mirrorUrl } from "../../../pipeline/nightly/mirror.ts";
import { thrown } from "../../helpers/thrown.ts";

describe("nightly configuration", () => {
  it("accepts the checked-in pipeline/nightly.config.json, every dataset with its required sources", () => {
    const c = loadNightlyConfig(path.join(PROJECT_ROOT, "pipeline", "nightly.config.json"));
    expect(Object.keys(c.datasets).sort()).toEqual(["admin", "elevation", "forecast", "places", "stations"]);
    for (const [name, plan] of Object.entries(c.datasets)) expect(() => checkSourceNames(name as never, plan, "nightly.config.json")).not.toThrow();
  });

  it("expands the METAR cycle template to the last hours, the current one included, across midnight", () => {
    const c = parseNightlyConfig(
      { datasets: { stations: { sources: { noaa: "https://h/n.txt", wmo: "https://h/w.csv", metar: { template: "https://h/cycles/{HH}Z.TXT", lastHours: 3 } } } } },
      "/x/c.json",
      new Date(Date.UTC(2026, 10, 23, 1, 30)),
    );
    expect(c.datasets.stations!.sources.metar!.map((s) => s.url)).toEqual(["https://h/cycles/23Z.TXT", "https://h/cycles/00Z.TXT", "https://h/cycles/01Z.TXT"]);
  });

  it("expands the SRTM template with the tile and its latitude band", () => {
    const c = parseNightlyConfig({ datasets: { elevation: { sources: { global: "https://h/g.tif", srtm: { template: "https://h/skadi/{latBand}/{tile}.hgt.gz", tiles: ["S46W066"] } } } } }, "/x/c.json");
    expect(c.datasets.elevation!.sources.srtm![0]!.url).toBe("https://h/skadi/S46/S46W066.hgt.gz");
  });

  it("--profile light: the checked-in light configuration, the forecast alone, GFS 1.00° 0-120 h from NOAA's bucket, the samples dropped", () => {
    expect(nightlyProfiles()).toContain("light");
    const file = profileConfigFile("light");
    expect(path.basename(file)).toBe("nightly.light.config.json");
    expect(parseNightlyArgs(["--profile", "light"]).config).toBe(file);
    const c = loadNightlyConfig(file);
    expect(Object.keys(c.datasets)).toEqual(["forecast"]);
    const plan = c.datasets.forecast!;
    expect(() => checkSourceNames("forecast", plan, "nightly.light.config.json")).not.toThrow();
    // NOAA's GFS bucket on AWS Open Data has NOMADS's layout (gfs.YYYYMMDD/HH/atmos/...).
    expect(plan.sources.base![0]!.url).toBe("https://noaa-gfs-bdp-pds.s3.amazonaws.com/");
    expect(plan.args).toEqual(["--model", "gfs100", "--run", "latest", "--steps", "0-120", "--drop-other-models"]);
  });

  it("refuses an unknown profile, and --profile with --config, naming what was expected", () => {
    expect(() => parseNightlyArgs(["--profile", "heavy"])).toThrow(/--profile.*expected one of .*light.*got "?heavy/);
    expect(() => parseNightlyArgs(["--profile", "../nightly"])).toThrow(ConfigError);
    expect(() => parseNightlyArgs(["--profile", "light", "--config", "x.json"])).toThrow(/either --config or --profile/);
  });

  it("{date} in a dataset's args is the run's UTC date (the checked-in stations args date the SYNOP collective)", () => {
    const c = parseNightlyConfig({ datasets: { stations: { sources: { noaa: "https://h/n.txt", wmo: "https://h/w.csv" }, args: ["--month", "{date}"] } } }, "/x/c.json", new Date(Date.UTC(2026, 10, 23, 23, 59)));
    expect(c.datasets.stations!.args).toEqual(["--month", "2026-11-23"]);
    const checkedIn = loadNightlyConfig(path.join(PROJECT_ROOT, "pipeline", "nightly.config.json"), new Date(Date.UTC(2026, 0, 2, 3)));
    expect(checkedIn.datasets.stations!.args).toEqual(["--month", "2026-01-02"]);
  });

  it("refuses a bad member with what was expected and what was got", () => {
    const bad = (raw: unknown): string => {
      const err = thrown(() => parseNightlyConfig(raw, "/x/c.json"));
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    };
    expect(bad({ datasets: { plaices: {} } })).toMatch(/datasets\.plaices.*expected one of places, admin/);
    expect(bad({ datasets: { places: { sources: { countries: "ftp://x/y" } } } })).toMatch(/sources\.countries.*expected an http\(s\):\/\/ or file:\/\/\/ URL/);
    expect(bad({ datasets: { places: { sources: {}, tolerances: [{ count: "places", minRatio: 2 }] } } })).toMatch(/tolerances\[0\]\.minRatio.*expected a ratio from 0 to 1, got "2"/);
    expect(bad({ datasets: { places: { sources: { places: { url: "https://h/a.zip", sha256: "abc" } } } } })).toMatch(/sha256.*expected 64 lowercase hex digits, got "abc"/);
  });

  it("maps every upstream host onto the mirror", () => {
    expect(mirrorUrl("https://download.geonames.org/export/dump/cities500.zip", "http://127.0.0.1:9000/m/")).toBe("http://127.0.0.1:9000/m/download.geonames.org/export/dump/cities500.zip");
    expect(mirrorUrl("https://download.geonames.org/export/dump/cities500.zip", undefined)).toBe("https://download.geonames.org/export/dump/cities500.zip");
    expect(mirrorUrl("https://h.example/a/b.txt", "/srv/mirror")).toBe("file:///srv/mirror/h.example/a/b.txt");
  });
});
