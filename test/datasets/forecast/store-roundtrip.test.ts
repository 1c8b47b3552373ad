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
    const run = await ForecastRun.open(await build());
    // lat 0.25 lies between rows 3 and 4 (tile rows 1 and 1); lon 100 between columns 2 and 3.
    let before = run.reads;
    const p = run.pointSeries(0.25, 100)!;
    expect(p.cells.map((c) => [c.i, c.j])).toEqual([[2, 3], [3, 3], [2, 4], [3, 4]]);
    expect(p.cells.reduce((s, c) => s + c.weight, 0)).toBeCloseTo(1, 12);
    expect(p.cells[0]!.weight).toBeCloseTo((1 - 28 / 36) * 0.75, 12);
    expect(run.reads - before).toBe(1);
    // Rows 5 and 6 are in tile rows 1 and 2; columns 3 and 4 in tile columns 0 and 1: two reads.
    before = run.reads;
    const q = run.pointSeries(2.5, 130)!;
    expect(q.cells.map((c) => [c.i, c.j])).toEqual([[3, 5], [4, 5], [3, 6], [4, 6]]);
    expect(run.reads - before).toBe(2);
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

  it("reads a 3x3 neighbourhood with one read per run of adjacent tiles in a tile row, to the written series", async () => {
    const run = await ForecastRun.open(await build());
    const block = (i0: number, j0: number): { i: number; j: number }[] =>
      [0, 1, 2].flatMap((dj) => [0, 1, 2].map((di) => ({ i: (i0 + di) % meta.grid.nLon, j: j0 + dj })));
    const check = (cells: { i: number; j: number }[], reads: number): void => {
      const out = new Float32Array(cells.length * nSteps);
      const before = run.reads;
      run.seriesAround(cells, Int32Array.of(1), out);
      expect(run.reads - before).toBe(reads);
      for (const [n, c] of cells.entries()) {
        const cell = c.j * meta.grid.nLon + c.i;
        expectWithin(out.subarray(n * nSteps, (n + 1) * nSteps), truth[1]!.subarray(cell * nSteps, (cell + 1) * nSteps), 0.0005 + 1e-4);
      }
    };
    // Columns 4..6 and rows 3..5: one tile. First, so that the larger groups after it grow the
    // buffer the run reads records into, and each group is read over the one before.
    check(block(4, 3), 1);
    // Columns 3..5 lie in tile columns 0 and 1 (adjacent), rows 2..4 in tile rows 0 and 1: two reads.
    check(block(3, 2), 2);
    // Columns 9, 0, 1 straddle the seam: tile columns 2 and 0 are not adjacent; rows 0..2 one tile row.
    check(block(9, 0), 2);
    check(block(4, 3), 1);
    run.close();
  });

  it("reads the same records through a source that only reads (copied into the run's buffer)", async () => {
    const file = await build();
    const bytes = await readFile(file);
    const run = ForecastRun.over({ read: (offset, length) => bytes.subarray(offset, offset + length) }, bytes.byteLength, file);
    const cells = [0, 1, 2].flatMap((dj) => [9, 0, 1].map((i) => ({ i, j: 2 + dj })));
    const out = new Float32Array(cells.length * nSteps);
    run.seriesAround(cells, Int32Array.of(1), out);
    for (const [n, c] of cells.entries()) {
      const cell = c.j * meta.grid.nLon + c.i;
      expectWithin(out.subarray(n * nSteps, (n + 1) * nSteps), truth[1]!.subarray(cell * nSteps, (cell + 1) * nSteps), 0.0005 + 1e-4);
    }
  });

  it("refuses a truncated or foreign run file at open with the reader's error", async () => {
    const file = await build();
    const bytes = await readFile(file);
    const cut = path.join(dir, "cut.fcst");
    await writeFile(cut, bytes.subarray(0, bytes.length - 10));
    await expect(ForecastRun.open(cut)).rejects.toThrow(/cut\.fcst.*expected a payload of \d+ bytes, got \d+ bytes/);
    const foreign = path.join(dir, "foreign.fcst");
    await writeFile(foreign, "GRIB not a run file at all");
    await expect(ForecastRun.open(foreign)).rejects.toThrow(/foreign\.fcst/);
    await writeFile(path.join(dir, "empty.fcst"), "");
    await expect(ForecastRun.open(path.join(dir, "empty.fcst"))).rejects.toThrow(/empty\.fcst/);
    await expect(ForecastRun.open(path.join(dir, "missing.fcst"))).rejects.toThrow(/missing\.fcst/);
    // A flipped byte in a series blob (header and tile table intact): the CRC-32 checked at open.
    bytes[bytes.length - 500] = bytes[bytes.length - 500]! ^ 0xff;
    await writeFile(path.join(dir, "bad.fcst"), bytes);
    await expect(ForecastRun.open(path.join(dir, "bad.fcst"))).rejects.toThrow(/bad\.fcst.*expected payload CRC-32 \d+, got \d+ \(corrupted file\)/);
  });

  it("opens a store through its index", async () => {
    await build();
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
});
