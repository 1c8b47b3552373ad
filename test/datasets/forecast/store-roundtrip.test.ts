import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ByteSink, SeriesEncoder, decodeSeries } from "../../../datasets/forecast/series-codec.ts";
import { RunWriter } from "../../../datasets/forecast/run-writer.ts";
import { writeRunFile } from "../../../datasets/forecast/run-file.ts";
import { ForecastRun } from "../../../datasets/forecast/run-reader.ts";
import { writeIndex } from "../../../datasets/forecast/index-file.ts";
import { openForecastStore } from "../../../datasets/forecast/store.ts";
import type { RunMeta } from "../../../datasets/forecast/types.ts";
import { mulberry32 as prng } from "../../../datasets/common/prng.ts";


function roundTrip(values: number[], scale: number, offset: number, reference = 0): Float32Array {
  const sink = new ByteSink();
  new SeriesEncoder().encode(sink, values, scale, offset, "test", reference);
  sink.zeros(4);
  const out = new Float32Array(values.length);
  decodeSeries(new DataView(sink.bytes.buffer, 0, sink.length), 0, values.length, scale, offset, reference, out, 0);
  return out;
}

function expectWithin(actual: ArrayLike<number>, expected: ArrayLike<number>, tol: number): void {
  expect(actual.length).toBe(expected.length);
  for (let k = 0; k < expected.length; k++) {
    const e = expected[k]!;
    const a = actual[k]!;
    if (Number.isNaN(e)) expect(a, `index ${k}`).toBeNaN();
    else expect(Math.abs(a - e), `index ${k}: ${a} vs ${e}`).toBeLessThanOrEqual(tol);
  }
}

describe("series codec", () => {
  const rand = prng(42);
  it("round-trips smooth series within half the scale (float32 output)", () => {
    const values = Array.from({ length: 209 }, (_, k) => 280 + 10 * Math.sin(k / 7) + rand());
    expectWithin(roundTrip(values, 0.01, 0), values, 0.005 + 280 * 2 ** -23);
  });
  it("round-trips spiky, missing, leading-missing and constant series", () => {
    const spiky = Array.from({ length: 100 }, () => (rand() < 0.8 ? 0 : rand() * 50));
    expectWithin(roundTrip(spiky, 0.001, 0), spiky, 0.0005 + 50 * 2 ** -23);
    const holes = [NaN, NaN, 3, 4, NaN, 6, NaN];
    expectWithin(roundTrip(holes, 1, 0), holes, 0);
    expectWithin(roundTrip([7, 7, 7, 7], 0.5, 1), [7, 7, 7, 7], 0);
    expectWithin(roundTrip([NaN, NaN], 1, 0), [NaN, NaN], 0);
    expectWithin(roundTrip([5], 1, 0), [5], 0);
  });
  it("round-trips values needing more than 25 bits (the wide path)", () => {
    const wide = [-(2 ** 29), 2 ** 29, -(2 ** 29) + 3, 12345, 2 ** 30 - 1, -(2 ** 30) + 1];
    expectWithin(roundTrip(wide, 1, 0), wide.map(Math.fround), 0);
    const negOffset = Array.from({ length: 50 }, () => (rand() - 0.5) * 2e8);
    expectWithin(roundTrip(negOffset, 1, 100), negOffset, 0.5 + 1e8 * 2 ** -23);
    // A base far from the tile's reference: the difference needs 32 bits and more.
    expectWithin(roundTrip(wide, 1, 0, -(2 ** 30) + 1), wide.map(Math.fround), 0);
    expectWithin(roundTrip(wide, 1, 0, 2 ** 30 - 1), wide.map(Math.fround), 0);
  });
  it("refuses a value that does not fit the scale, naming the variable", () => {
    expect(() => roundTrip([1e12], 0.001, 0)).toThrow(/field test/);
  });
});

describe("run file", () => {
  let dir = "";
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  // A 7 x 10 grid with tiles of 3 x 4: edge tiles are partial, the grid wraps in longitude.
  const meta: RunMeta = {
    model: "test",
    runTime: "2020-01-01T00:00:00.000Z",
    steps: [0, 3, 6, 9, 12],
    intervalStart: [0, 0, 3, 6, 9],
    grid: { lat0: -3, lon0: 0, dLat: 1, dLon: 36, nLat: 7, nLon: 10, wrapsLon: true },
    tile: { lat: 3, lon: 4 },
    variables: [
      { name: "temperature_2m", unit: "K", scale: 0.01, offset: 0, aggregation: "instant" },
      { name: "precipitation", unit: "kg m-2", scale: 0.001, offset: 0, aggregation: "sum" },
    ],
    absent: [],
  };
  const nSteps = meta.steps.length;
  const cells = meta.grid.nLat * meta.grid.nLon;
  const rand = prng(7);
  const truth = meta.variables.map(() => {
    const a = new Float32Array(cells * nSteps);
    for (let k = 0; k < a.length; k++) a[k] = rand() < 0.05 ? NaN : Math.round(rand() * 30000) / 100;
    return a;
  });

  async function build(spill = false): Promise<string> {
    dir = await mkdtemp(path.join(tmpdir(), "fcst-"));
    const writer = new RunWriter(meta, spill ? { spillPath: path.join(dir, "spill.tmp") } : {});
    for (let band = writer.nextBand(); band; band = writer.nextBand()) {
      const slice = truth.map((a) => a.slice(band.firstRow * meta.grid.nLon * nSteps, (band.firstRow + band.rows) * meta.grid.nLon * nSteps));
      writer.add(slice);
    }
    const file = path.join(dir, "test", "2020010100.fcst");
    await writeRunFile(file, meta, writer.finish(), []);
    return file;
  }

  it("returns every cell's series as written", async () => {
    const run = await ForecastRun.open(await build());
    for (let j = 0; j < meta.grid.nLat; j++) {
      for (let i = 0; i < meta.grid.nLon; i++) {
        for (const [v, variable] of meta.variables.entries()) {
          const cell = j * meta.grid.nLon + i;
          const expected = truth[v]!.subarray(cell * nSteps, (cell + 1) * nSteps);
          expectWithin(run.cellSeries(i, j, variable.name)!, expected, variable.scale / 2 + 1e-4);
        }
      }
    }
    expect(run.cellSeries(10, 0, "temperature_2m")).toBeUndefined();
    expect(run.cellSeries(0, 0, "nope")).toBeUndefined();
  });

  it("returns the four cells around a point with bilinear weights, in at most two reads from a file", async () => {
    // Read by positioned reads (no memory for the payload): the reads are counted.
    const run = await ForecastRun.open(await build(), 0);
    // lat 0.25 lies between rows 3 and 4 (tile rows 1 and 1); lon 100 between columns 2 and 3.
    const p = run.pointSeries(0.25, 100)!;
    expect(p.cells.map((c) => [c.i, c.j])).toEqual([[2, 3], [3, 3], [2, 4], [3, 4]]);
    expect(p.cells.reduce((s, c) => s + c.weight, 0)).toBeCloseTo(1, 12);
    expect(p.cells[0]!.weight).toBeCloseTo((1 - 28 / 36) * 0.75, 12);
    expect(run.lastReads).toBe(1);
    // Rows 5 and 6 are in tile rows 1 and 2; columns 3 and 4 in tile columns 0 and 1: two reads.
    const q = run.pointSeries(2.5, 130)!;
    expect(q.cells.map((c) => [c.i, c.j])).toEqual([[3, 5], [4, 5], [3, 6], [4, 6]]);
    expect(run.lastReads).toBe(2);
    for (const [ci, c] of q.cells.entries()) {
      const cell = c.j * meta.grid.nLon + c.i;
      expectWithin(q.values[1]![ci]!, truth[1]!.subarray(cell * nSteps, (cell + 1) * nSteps), 0.0005 + 1e-4);
    }
    // The 0/360 seam: columns 9 and 0 are neighbours on a wrapping grid.
    const s = run.pointSeries(0, 350)!;
    expect(s.cells.map((c) => c.i)).toEqual([9, 0, 9, 0]);
    expect(s.cells[0]!.lon).toBe(-36);
    expect(run.pointSeries(3.5, 0)).toBeUndefined();
    expect(run.pointSeries(0, 0, ["cloud_cover"])!.values[0]![0]!.every(Number.isNaN)).toBe(true);
    run.close();
  });

  it("decodes a run held in memory in place, without reads, to the same series", async () => {
    const file = await build();
    const mem = await ForecastRun.open(file);
    const fd = await ForecastRun.open(file, 0);
    for (const [lat, lon] of [[0.25, 100], [2.5, 130], [0, 350]] as const) {
      const a = mem.pointSeries(lat, lon)!;
      expect(mem.lastReads).toBe(0);
      expect(a.values).toEqual(fd.pointSeries(lat, lon)!.values);
      for (const c of a.cells) expect(mem.cellSeries(c.i, c.j, "precipitation")).toEqual(fd.cellSeries(c.i, c.j, "precipitation"));
      expect(a.values[1]![0]).toEqual(fd.cellSeries(a.cells[0]!.i, a.cells[0]!.j, a.variables[1]!));
    }
    fd.close();
  });

  it("refuses a corrupted run file and opens a store through its index", async () => {
    const file = await build();
    const bytes = await readFile(file);
    bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 0xff;
    const bad = path.join(dir, "bad.fcst");
    await writeFile(bad, bytes);
    await expect(ForecastRun.open(bad)).rejects.toThrow(/CRC/);
    await writeIndex(path.join(dir, "index.bin"), { runs: [{ model: "test", runTime: meta.runTime, file: "test/2020010100.fcst", steps: 5, variables: ["temperature_2m", "precipitation"], bytes: 0 }] }, []);
    const store = await openForecastStore(dir);
    expect(store.models()).toEqual(["test"]);
    expect(store.pointSeries("test", 0, 0)!.steps).toEqual(meta.steps);
    expect(store.pointSeries("other", 0, 0)).toBeUndefined();
    store.close();
  });

  it("writes the same bytes when the payload is spilled to a file", async () => {
    const inMemory = await readFile(await build());
    const spilled = await readFile(await build(true));
    // Only the build time in the metadata differs.
    const strip = (b: Buffer): string => b.toString("latin1").replace(/"builtAt":"[^"]*"/, "");
    expect(strip(spilled)).toBe(strip(inMemory));
    expect(existsSync(path.join(dir, "spill.tmp"))).toBe(false);
  });

  it("reads a large run through positioned reads with the same results", async () => {
    const file = await build();
    const mem = await ForecastRun.open(file);
    const fd = await ForecastRun.open(file, 0);
    const a = mem.pointSeries(1.7, 200)!;
    const b = fd.pointSeries(1.7, 200)!;
    expect(b.values).toEqual(a.values);
    fd.close();
  });
});
