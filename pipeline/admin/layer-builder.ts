/**
 * Collects features as chains of vertices (flat [lon, lat, lon, lat, ...]) into a PolygonLayer.
 * Writers: `add()` ... `finish()`.
 */
import { chainChunkBoxes, writeVertexBox, type PolygonLayer } from "../../datasets/admin/polygon-layer.ts";

export class LayerBuilder {
  private readonly chains: Float64Array[][] = [];

  /** Adds a feature; returns its id (the order of addition). */
  add(chains: Float64Array[]): number {
    this.chains.push(chains.filter((c) => c.length >= 4));
    return this.chains.length - 1;
  }

  get count(): number {
    return this.chains.length;
  }

  finish(): PolygonLayer {
    let vertices = 0;
    let chainCount = 0;
    for (const f of this.chains) {
      chainCount += f.length;
      for (const c of f) vertices += c.length / 2;
    }
    const xy = new Float64Array(2 * vertices);
    const chainStart = new Uint32Array(chainCount + 1);
    const featureChainStart = new Uint32Array(this.chains.length + 1);
    const featureBox = new Float64Array(4 * this.chains.length);
    let v = 0;
    let c = 0;
    for (let f = 0; f < this.chains.length; f++) {
      featureChainStart[f] = c;
      let minX = Infinity;
      let minY = Infinity;
      let maxX = -Infinity;
      let maxY = -Infinity;
      for (const chain of this.chains[f]!) {
        chainStart[c++] = v;
        for (let k = 0; k < chain.length; k += 2) {
          const x = chain[k]!;
          const y = chain[k + 1]!;
          xy[2 * v] = x;
          xy[2 * v + 1] = y;
          v++;
          if (x < minX) minX = x;
          if (x > maxX) maxX = x;
          if (y < minY) minY = y;
          if (y > maxY) maxY = y;
        }
      }
      featureBox.set([minX, minY, maxX, maxY], 4 * f);
    }
    chainStart[c] = v;
    featureChainStart[this.chains.length] = c;
    // Chain boxes let brute force skip the chains a ray or a distance check cannot reach.
    const chainBox = new Float64Array(4 * chainCount);
    for (let k = 0; k < chainCount; k++) writeVertexBox(xy, chainStart[k]!, chainStart[k + 1]!, chainBox, 4 * k, 0);
    return { xy, chainStart, chainBox, ...chainChunkBoxes(xy, chainStart), featureChainStart, featureBox };
  }
}
