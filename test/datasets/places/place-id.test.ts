import { describe, expect, it } from "vitest";
import { formatPlaceId, parsePlaceId } from "../../../datasets/places/place-id.ts";

describe("place ids", () => {
  it("round-trips a GeoNames id", () => {
    expect(formatPlaceId(2950159)).toBe("gn:2950159");
    expect(parsePlaceId("gn:2950159")).toBe(2950159);
  });

  it("refuses anything else", () => {
    for (const bad of ["2950159", "gn:", "gn:0", "gn:012", "GN:1", "gn:1a", "gn:-1", "gn:99999999999", "gn:4294967296", " gn:1"]) {
      expect(parsePlaceId(bad), bad).toBeUndefined();
    }
    expect(parsePlaceId("gn:4294967295")).toBe(4294967295);
  });
});
