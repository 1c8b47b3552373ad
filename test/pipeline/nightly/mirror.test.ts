/** The mirror mapping and its inverse: a location a step reports is named by its upstream URL again. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { mirrorUrl, upstreamOf } from "../../../pipeline/nightly/mirror.ts";

const NOMADS = "https://nomads.ncep.noaa.gov/pub/data/nccf/com/gfs/prod/";
const ECMWF = "https://data.ecmwf.int/forecasts/";

describe("upstreamOf", () => {
  it("maps a location under an http mirror back to the upstream URL", () => {
    const mapped = [NOMADS, ECMWF].map((url) => ({ url, location: mirrorUrl(url, "http://mirror.lan/upstream/") }));
    expect(mapped[0]!.location).toBe("http://mirror.lan/upstream/nomads.ncep.noaa.gov/pub/data/nccf/com/gfs/prod/");
    expect(upstreamOf("http://mirror.lan/upstream/nomads.ncep.noaa.gov/pub/data/nccf/com/gfs/prod/gfs.20200325/18/atmos/", mapped)).toBe(`${NOMADS}gfs.20200325/18/atmos/`);
    expect(upstreamOf("http://mirror.lan/upstream/data.ecmwf.int/forecasts/20260310/00z/", mapped)).toBe(`${ECMWF}20260310/00z/`);
    expect(upstreamOf("http://mirror.lan/upstream/nomads.ncep.noaa.gov/pub/data/nccf/com/gfs/prod/", mapped)).toBe(NOMADS);
  });

  it("maps a directory of a mirror on disk back, with or without its trailing separator", () => {
    const root = path.resolve("mirror-root");
    const location = fileURLToPath(mirrorUrl(NOMADS, root));
    const mapped = [{ url: NOMADS, location }];
    expect(upstreamOf(path.join(root, "nomads.ncep.noaa.gov", "pub", "data", "nccf", "com", "gfs", "prod"), mapped)).toBe(NOMADS);
    expect(upstreamOf(`${location}gfs.20200325/18/atmos`, mapped)).toBe(`${NOMADS}gfs.20200325/18/atmos`);
  });

  it("leaves a location under no mapped one as it is", () => {
    const mapped = [{ url: NOMADS, location: mirrorUrl(NOMADS, "http://mirror.lan/") }];
    expect(upstreamOf("http://mirror.lan/nomads.ncep.noaa.gov/pub/data/nccf/com/gfs/prodx/", mapped)).toBe("http://mirror.lan/nomads.ncep.noaa.gov/pub/data/nccf/com/gfs/prodx/");
    expect(upstreamOf("/srv/grib", mapped)).toBe("/srv/grib");
  });
});
