/**
 * GRIB2 range decoding (pipeline/grib/packed-range.ts) as the forecast step uses it: a field
 * indexed once with checkpoints every 4 grid rows, then decoded band by band in order, then the
 * bands again from the recorded states. Fields: the GFS 0.25° PV-level temperature with
 * missing-value management (5.3, 409,080 missing points; shared data) and the GDAS 0.25° 5.3
 * order-2 fixture without missing values. Baseline in the same run: decodeField of the whole field.
 *
 *   npm run bench -- grib-range [--root DIR] [--shared DIR]
 *
 * --root DIR takes the decoders of another checkout (same API): run it A B A B against this one
 * to compare two versions of the decoder on the same machine; --shared DIR reads the shared data
 * from DIR (default ../shared/data beside the checkout).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Bench } from "tinybench";
import { PROJECT_ROOT, SHARED_DATA_DIR } from "../datasets/common/paths.ts";

const args = process.argv.slice(2);
const rootAt = args.indexOf("--root");
const root = rootAt >= 0 ? path.resolve(args[rootAt + 1]!) : PROJECT_ROOT;
const sharedAt = args.indexOf("--shared");
const sharedDir = sharedAt >= 0 ? path.resolve(args[sharedAt + 1]!) : SHARED_DATA_DIR;
const grib = (file: string): string => path.join(root, "pipeline", "grib", file);
const { decodeField } = (await import(grib("decode.ts"))) as typeof import("../pipeline/grib/decode.ts");
const { scanGrib } = (await import(grib("scan.ts"))) as typeof import("../pipeline/grib/scan.ts");
const { decodePackedRange, indexPacked } = (await import(grib("packed-range.ts"))) as typeof import("../pipeline/grib/packed-range.ts");
const { padded } = (await import(grib("bit-unpack.ts"))) as typeof import("../pipeline/grib/bit-unpack.ts");
const { u32 } = (await import(grib("bytes.ts"))) as typeof import("../pipeline/grib/bytes.ts");

const cases = [
  { label: "GFS 0.25° PV TMP, missing values", file: path.join(sharedDir, "grib", "gfs", "gfs.t12z.pgrb2.0p25.f023-PV-TMP-missing.grib2") },
  { label: "GDAS 0.25° msg 13, none missing", file: path.join(PROJECT_ROOT, "test", "fixtures", "grib", "gdas-t12z-0p25-f000-msg13.grib2") },
].filter((c) => existsSync(c.file));

const bench = new Bench({ time: 4000, warmup: true });
for (const c of cases) {
  const bytes = new Uint8Array(readFileSync(c.file));
  const field = scanGrib(bytes, c.file)[0]!;
  const start = field.sections.data + 5;
  const length = u32(bytes, field.sections.data) - 5;
  // Read as a file would be: a copy of each range asked for.
  const src = { read: (offset: number, n: number): Uint8Array => padded(bytes, start + offset, Math.min(n, length - offset)) };
  const n = field.grid.ni * field.grid.nj;
  const breakpoints: number[] = [];
  for (let p = 0; p <= n; p += 4 * field.grid.ni) breakpoints.push(p);
  const bands = breakpoints.map((p, i) => [p, Math.min(n, breakpoints[i + 1] ?? n)] as const).filter(([a, b]) => a < b);
  const out = new Float32Array(4 * field.grid.ni);
  bench.add(`${c.label}: decodeField (baseline)`, () => void decodeField(bytes, field, c.file));
  bench.add(`${c.label}: index + every 4-row band`, () => {
    const index = indexPacked(bytes, field, c.file, breakpoints)!;
    for (const [a, b] of bands) decodePackedRange(index, src, a, b, out);
  });
}
await bench.run();
console.log(`decoders of ${root === PROJECT_ROOT ? "this checkout" : root}`);
console.table(
  bench.tasks.map((t) => {
    const r = t.result as unknown as { latency: { p50: number; min: number; mean: number } };
    return { task: t.name, "min ms": r.latency.min.toFixed(2), "p50 ms": r.latency.p50.toFixed(2), "mean ms": r.latency.mean.toFixed(2) };
  }),
);
