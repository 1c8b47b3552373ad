/**
 * The step's input readers and option parsing: real GeoJSON (Natural Earth's Liechtenstein cut),
 * the timezone-boundary-builder release form (one feature per tzid; built here from the real
 * Europe/Vaduz boundary), and the typed errors for bad options and missing or malformed input.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, DataFormatError, MissingInputError } from "../../../datasets/common/errors.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { createLogger } from "../../../datasets/common/log.ts";
import { parseFeatureCollection } from "../../../pipeline/admin/geojson.ts";
import { adminFeaturesOf } from "../../../pipeline/admin/naturalearth.ts";
import { parseAdminArgs, runAdmin } from "../../../pipeline/admin/step.ts";
import { zonesFromGeojson } from "../../../pipeline/admin/timezones-geojson.ts";

const FIXTURES = path.join(import.meta.dirname, "..", "..", "fixtures", "admin");

describe("admin step inputs", () => {
  it("reads Natural Earth's properties and rings", () => {
    const features = adminFeaturesOf(parseFeatureCollection(readFileSync(path.join(FIXTURES, "ne-admin1-liechtenstein.geojson"), "utf8"), "li.geojson"));
    expect(features).toHaveLength(11);
    const vaduz = features.find((f) => f.name === "Vaduz")!;
    expect(vaduz.isoA2).toBe("LI");
    expect(vaduz.gnA1Code).toMatch(/^LI\./);
    // Closed rings: first vertex = last vertex.
    const r = vaduz.rings[0]!;
    expect([r[0], r[1]]).toEqual([r[r.length - 2], r[r.length - 1]]);
  });

  it("merges a release GeoJSON's features by tzid, in alphabetical order", () => {
    const vaduz = JSON.parse(readFileSync(path.join(FIXTURES, "geotz-europe-vaduz-chains.json"), "utf8")) as { chains: number[][] };
    const ring = (c: number[]): number[][] => Array.from({ length: c.length / 2 }, (_, k) => [c[2 * k]!, c[2 * k + 1]!]);
    const fc = {
      type: "FeatureCollection",
      features: [
        { type: "Feature", properties: { tzid: "Europe/Vaduz" }, geometry: { type: "Polygon", coordinates: [ring(vaduz.chains[0]!)] } },
        { type: "Feature", properties: { tzid: "Etc/GMT-1" }, geometry: { type: "Polygon", coordinates: [[[7.5, 0], [22.5, 0], [22.5, 1], [7.5, 0]]] } },
        { type: "Feature", properties: { tzid: "Europe/Vaduz" }, geometry: { type: "MultiPolygon", coordinates: [[ring(vaduz.chains[1]!)]] } },
      ],
    };
    const zones = zonesFromGeojson(JSON.stringify(fc), "timezones.geojson");
    expect(zones.map((z) => z.tzid)).toEqual(["Etc/GMT-1", "Europe/Vaduz"]);
    expect(zones[1]!.chains).toHaveLength(2);
  });

  it("names the feature and field of malformed GeoJSON", () => {
    expect(() => parseFeatureCollection("{", "x.geojson")).toThrow(DataFormatError);
    const noTzid = { type: "FeatureCollection", features: [{ type: "Feature", properties: {}, geometry: { type: "Polygon", coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] } }] };
    expect(() => zonesFromGeojson(JSON.stringify(noTzid), "t.geojson")).toThrow(/features\[0\]\.properties\.tzid/);
    const point = { type: "FeatureCollection", features: [{ type: "Feature", properties: { tzid: "UTC" }, geometry: { type: "Point", coordinates: [0, 0] } }] };
    expect(() => zonesFromGeojson(JSON.stringify(point), "t.geojson")).toThrow(/features\[0\]\.geometry: expected a Polygon or MultiPolygon, got Point/);
  });

  it("refuses unknown options and out-of-range resolutions", () => {
    expect(() => parseAdminArgs(["--naturalearth", "a", "--places", "b", "--admin1", "c", "--colour", "red"])).toThrow(ConfigError);
    expect(() => parseAdminArgs(["--naturalearth", "a", "--places", "b", "--admin1", "c", "--res", "12"])).toThrow(/--res/);
    expect(() => parseAdminArgs(["--places", "b", "--admin1", "c"])).toThrow(/--naturalearth/);
  });

  it("fails with the missing file named", async () => {
    const config = readConfig({ GEODATA_DATA_DIR: path.join(import.meta.dirname, "no-such-data") });
    const args = parseAdminArgs(["--naturalearth", "/nonexistent/ne.geojson.gz", "--places", "b", "--admin1", "c"]);
    await expect(runAdmin(args, { config, logger: createLogger({ minLevel: "error" }) })).rejects.toThrow(MissingInputError);
    await expect(runAdmin(args, { config, logger: createLogger({ minLevel: "error" }) })).rejects.toThrow(/nonexistent\/ne\.geojson\.gz/);
  });
});
