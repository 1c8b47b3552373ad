import { describe, expect, it } from "vitest";
import { DataFormatError } from "../../../datasets/common/errors.ts";
import { decodeIndexPayload, encodeIndexPayload, formatResolution, type ElevationIndex } from "../../../datasets/elevation/index-format.ts";
import { thrown } from "../../helpers/thrown.ts";

const index: ElevationIndex = {
  rasters: [
    {
      file: "srtm3/N00E010.tif",
      source: "srtm3",
      kind: "tile",
      grid: { width: 1201, height: 1201, lon0: 10, lat0: 1, resLonArcsec: 3, resLatArcsec: 3 },
      bytes: 1379320,
      sourceVoids: 0,
      voidsFilled: 0,
      min: 1,
      max: 1005,
    },
  ],
};

describe("elevation index payload", () => {
  it("round-trips", () => {
    expect(decodeIndexPayload(encodeIndexPayload(index), "index.bin", 64)).toEqual(index);
  });

  it("refuses unparseable JSON with the payload's offset", () => {
    const err = thrown(() => decodeIndexPayload(Buffer.from("{rasters:"), "index.bin", 512));
    expect(err).toBeInstanceOf(DataFormatError);
    expect((err as DataFormatError).where).toEqual({ file: "index.bin", offset: 512 });
  });

  it("refuses an entry with a bad grid or a path leaving the directory, naming the entry", () => {
    const badGrid = { rasters: [{ ...index.rasters[0]!, grid: { ...index.rasters[0]!.grid, width: 0 } }] };
    expect(() => decodeIndexPayload(encodeIndexPayload(badGrid), "index.bin", 0)).toThrow(/field rasters\[0\]/);
    const escape = { rasters: [{ ...index.rasters[0]!, file: "../../etc/passwd" }] };
    expect(() => decodeIndexPayload(encodeIndexPayload(escape), "index.bin", 0)).toThrow(/field rasters\[0\]/);
  });

  it("names resolutions as the X-Elevation-Source header gives them", () => {
    expect([formatResolution(1), formatResolution(3), formatResolution(300), formatResolution(3600), formatResolution(30)]).toEqual(["1arcsec", "3arcsec", "5arcmin", "1deg", "30arcsec"]);
  });
});
