/**
 * Reading geo-tz's packaged polygons and cancelling the quadtree cut lines keeps every zone's
 * region: brute-force point-in-polygon on the merged zones answers like geo-tz's own lookup
 * (turf point-in-polygon on the clipped pieces) on seeded random points and on points next to
 * zone borders.
 */
import { find } from "geo-tz/all";
import { beforeAll, describe, expect, it } from "vitest";
import { featuresContaining, memoryAccess, type PolygonLayer } from "../../../datasets/admin/polygon-layer.ts";
import { oceanZone } from "../../../datasets/admin/ocean-zones.ts";
import { readGeoTzPackage, type ZoneChains } from "../../../pipeline/admin/geotz-package.ts";
import { LayerBuilder } from "../../../pipeline/admin/layer-builder.ts";
import { defaultGeoTzDir } from "../../../pipeline/admin/step.ts";
import { mulberry32 } from "../../../datasets/common/prng.ts";

let zones: ZoneChains[];
let layer: PolygonLayer;

beforeAll(async () => {
  zones = (await readGeoTzPackage(defaultGeoTzDir())).zones;
  const b = new LayerBuilder();
  for (const z of zones) b.add(z.chains);
  layer = b.finish();
}, 300_000);

function zoneAt(lat: number, lon: number): string {
  const f = featuresContaining(memoryAccess(layer), lon, lat)[0];
  return f === undefined ? oceanZone(lon) : zones[f]!.tzid;
}

describe("geo-tz package reader", () => {
  it("reads the full product: 419 zones in alphabetical order", () => {
    expect(zones.length).toBe(419);
    const names = zones.map((z) => z.tzid);
    expect([...names].sort()).toEqual(names);
  });

  it("agrees with geo-tz on random points and next to borders", () => {
    const rnd = mulberry32(11);
    const disagreements: string[] = [];
    const check = (lat: number, lon: number): void => {
      const ours = zoneAt(lat, lon);
      const theirs = find(lat, lon);
      // Where zones overlap geo-tz lists them all; we answer the alphabetically first.
      const expected = [...theirs].sort()[0];
      if (ours !== expected) disagreements.push(`${lat},${lon}: ${ours} vs ${theirs.join("|")}`);
    };
    for (let k = 0; k < 1500; k++) check((Math.asin(2 * rnd() - 1) * 180) / Math.PI * 0.999, rnd() * 359.99 - 179.995);
    for (let k = 0; k < 1500; k++) {
      const v = Math.floor((rnd() * layer.xy.length) / 2);
      const lat = Math.max(-89.99, Math.min(89.99, layer.xy[2 * v + 1]! + (rnd() - 0.5) * 0.01));
      const lon = Math.max(-179.99, Math.min(179.99, layer.xy[2 * v]! + (rnd() - 0.5) * 0.01));
      check(lat, lon);
    }
    expect(disagreements).toEqual([]);
  });
});
