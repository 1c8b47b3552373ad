/**
 * Enclaves finer than Natural Earth 10m: Baarle-Hertog's 22 Belgian enclaves inside the
 * Netherlands, Büsingen, Campione d'Italia, Llívia... are missing from its admin-1 polygons, but
 * the timezone polygons (built from OpenStreetMap borders) carry them as small polygons of the
 * enclave country's zone. A small timezone polygon (under 0.1° across; small-rings.ts) is taken as an enclave when every vertex of its outer ring lies in Natural Earth
 * areas of one country C, and its zone belongs to another country Z (the country most GeoNames
 * places of that zone are in). The enclave becomes an admin feature of country Z, with the
 * admin-1 code of Z's nearest Natural Earth area, placed before the Natural Earth features so
 * that it answers first. Its holes (Baarle-Nassau's counter-enclaves) stay with C.
 */
import type { ZoneChains } from "./geotz-package.ts";
import { closedSmallRings, groupByNesting } from "./small-rings.ts";
import type { FeatureGrid } from "./feature-grid.ts";
import type { PolygonLayer } from "../../datasets/admin/polygon-layer.ts";

/**
 * Pairs (zone country, surrounding country) whose small zone polygons are not enclaves of the
 * zone's country, each with the reason. Checked in, like every known anomaly of the build.
 */
export const NOT_ENCLAVES: readonly { zoneCountry: string; surrounding: string; why: string }[] = [
  {
    zoneCountry: "IL",
    surrounding: "PS",
    why: "Israeli settlements in the West Bank keep Asia/Jerusalem time, but they lie in the Palestinian territory of Natural Earth (and of the UN); their time zone does not make them Israel.",
  },
];

function isNotEnclave(zoneCountry: string, surrounding: string): boolean {
  return NOT_ENCLAVES.some((n) => n.zoneCountry === zoneCountry && n.surrounding === surrounding);
}

export interface Enclave {
  rings: Float64Array[];
  iso2: string;
  admin1: string;
  name: string;
  tzid: string;
}

export interface NaturalEarthLabels {
  iso2: readonly string[];
  admin1: readonly string[];
  name: readonly string[];
}

function nearestFeatureOf(layer: PolygonLayer, labels: NaturalEarthLabels, country: string, lon: number, lat: number): number | undefined {
  const k = Math.cos((lat * Math.PI) / 180);
  let best: number | undefined;
  let bestD = Infinity;
  const fcs = layer.featureChainStart;
  for (let f = 0; f < fcs.length - 1; f++) {
    if (labels.iso2[f] !== country) continue;
    const from = layer.chainStart[fcs[f]!]!;
    const to = layer.chainStart[fcs[f + 1]!]!;
    for (let v = from; v < to; v++) {
      const dx = (layer.xy[2 * v]! - lon) * k;
      const dy = layer.xy[2 * v + 1]! - lat;
      const d = dx * dx + dy * dy;
      if (d < bestD) {
        bestD = d;
        best = f;
      }
    }
  }
  return best;
}

export function findEnclaves(zones: readonly ZoneChains[], ne: PolygonLayer, grid: FeatureGrid, labels: NaturalEarthLabels, zoneCountry: ReadonlyMap<string, string>): Enclave[] {
  const out: Enclave[] = [];
  for (const zone of zones) {
    const z = zoneCountry.get(zone.tzid);
    if (z === undefined) continue;
    for (const poly of groupByNesting(closedSmallRings(zone.chains))) {
      const outer = poly[0]!;
      let surrounding: string | undefined;
      let ok = true;
      for (let k = 0; k + 2 < outer.length && ok; k += 2) {
        const f = grid.locate(outer[k]!, outer[k + 1]!);
        const c = f === undefined ? "" : labels.iso2[f]!;
        if (c === "" || (surrounding !== undefined && c !== surrounding)) ok = false;
        surrounding = c;
      }
      if (!ok || surrounding === undefined || surrounding === z || isNotEnclave(z, surrounding)) continue;
      const near = nearestFeatureOf(ne, labels, z, outer[0]!, outer[1]!);
      if (near === undefined) continue;
      out.push({ rings: poly, iso2: z, admin1: labels.admin1[near]!, name: `${labels.name[near]} (enclave in ${surrounding})`, tzid: zone.tzid });
    }
  }
  return out;
}
