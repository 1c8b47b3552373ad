/**
 * Open-sea zones against geo-tz, which answers the same release of timezone-boundary-builder
 * with its own code (points chosen far from any coast).
 */
import { find } from "geo-tz/all";
import { describe, expect, it } from "vitest";
import { oceanZone } from "../../../datasets/admin/ocean-zones.ts";

describe("oceanZone", () => {
  it("matches geo-tz in the open ocean", () => {
    for (const [lat, lon] of [[0, -140], [-40, -100], [30, -40], [-50, 80], [35, 160], [-60, -170], [45, -30]] as const) {
      expect(oceanZone(lon)).toBe(find(lat, lon)[0]);
    }
  });

  it("names the 15-degree bands with POSIX signs", () => {
    expect(oceanZone(-140)).toBe("Etc/GMT+9");
    expect(oceanZone(0)).toBe("Etc/GMT");
    expect(oceanZone(100)).toBe("Etc/GMT-7");
  });

  it("takes the eastern band on an edge and Etc/GMT+12 at ±180 like geo-tz", () => {
    expect(oceanZone(7.5)).toBe(find(0, 7.5)[0]);
    expect(oceanZone(-172.5)).toBe(find(-30, -172.5)[0]);
    expect(oceanZone(180)).toBe(find(-30, 180)[0]);
    expect(oceanZone(-180)).toBe(find(-30, -180)[0]);
  });
});
