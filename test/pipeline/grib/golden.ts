/**
 * The committed golden values of whole fields (test/fixtures/grib/README.md says where each comes
 * from): every 97th value as float32 little-endian (`*-every97.f32`) and statistics over all points
 * (`*-stats.json`), and the comparison of a decoded field with them.
 */
import { readFileSync } from "node:fs";
import { fixture } from "./fixtures.ts";

/** Values at indexes 0, stride, 2 x stride, ... of the field named in the file. */
export function goldenValues(name: string): Float32Array {
  const b = readFileSync(fixture(name));
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}

export interface GoldenStats {
  stride: number;
  count: number;
  min: number;
  max: number;
  mean: number;
}

export function goldenStats(name: string): GoldenStats {
  return JSON.parse(readFileSync(fixture(name), "utf8")) as GoldenStats;
}

/** The sampled points whose decoded value is not exactly the golden one, as "index: ours vs golden". */
export function goldenMismatches(values: ArrayLike<number>, golden: Float32Array, stride = 97): string[] {
  const wrong: string[] = [];
  golden.forEach((g, k) => {
    if (values[k * stride] !== g) wrong.push(`${k * stride}: ${values[k * stride]} vs ${g}`);
  });
  return wrong;
}
