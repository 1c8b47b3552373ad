/**
 * Brute-force point-in-polygon made affordable for the pipeline's own lookups (the crosswalk's
 * 200,000 places, the enclave check): features bucketed by the 1° cells their bounding boxes
 * cover, then tested exactly, in feature order.
 */
import { featureContains, featureCount, type LayerAccess } from "../../datasets/admin/polygon-layer.ts";

export class FeatureGrid {
  private readonly cells = new Map<number, number[]>();

  constructor(private readonly layer: LayerAccess) {
    const b = layer.featureBox;
    for (let f = 0; f < featureCount(layer); f++) {
      for (let y = Math.floor(b[4 * f + 1]!); y <= Math.floor(b[4 * f + 3]!); y++) {
        for (let x = Math.floor(b[4 * f]!); x <= Math.floor(b[4 * f + 2]!); x++) {
          const key = (y + 90) * 361 + (x + 180);
          let list = this.cells.get(key);
          if (!list) this.cells.set(key, (list = []));
          list.push(f);
        }
      }
    }
  }

  /** The first feature (in feature order) containing the point, or undefined. */
  locate(lon: number, lat: number): number | undefined {
    const list = this.cells.get((Math.floor(lat) + 90) * 361 + (Math.floor(lon) + 180));
    if (!list) return undefined;
    for (const f of list) if (featureContains(this.layer, f, lon, lat)) return f;
    return undefined;
  }
}
