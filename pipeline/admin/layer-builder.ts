/**
 * Collects features as chains of vertices (flat [lon, lat, lon, lat, ...]) into a PolygonLayer.
 * Writers: `add()` ... `finish()`.
 */
import type { PolygonLayer } from "../../datasets/admin/polygon-layer.ts";

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
    const xs = new Float64Array(vertices);
    const ys = new Float64Array(vertices);
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
          xs[v] = x;
          ys[v] = y;
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
    return { xs, ys, chainStart, featureChainStart, featureBox };
  }
}
