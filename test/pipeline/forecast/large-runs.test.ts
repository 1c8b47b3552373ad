/**
 * Large runs (a GFS 0.25° run is 1.8 GB of GRIB, 19.6 GB decoded): the fields stay packed where
 * they lie and are decoded band by band, and the payload is written once, into the run file's
 * temporary path. Checked on real GRIB files against the in-memory path (decoded fields, payload
 * in memory): the same payload bytes, with no decoded copy of any range-decodable field (the
 * fallback store refuses every write) and no file left behind but the run files and the index.
 */
import { copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openEnvelope } from "../../../datasets/artifact/envelope.ts";
import { DATASETS } from "../../../datasets/catalog.ts";
import { EMBEDDED_DIR } from "../../../datasets/common/paths.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { buildRun, TILE } from "../../../pipeline/forecast/build-run.ts";
import { collectFields } from "../../../pipeline/forecast/collect.ts";
import { memoryFieldStore, type FieldStore } from "../../../pipeline/forecast/field-store.ts";
import { GRIB_CODEC } from "../../../pipeline/forecast/grib-codec.ts";
import { localSource } from "../../../pipeline/forecast/grib-source.ts";
import { GFS_ALASKA_0P5 } from "../../../pipeline/forecast/models/gfs-alaska/domains.ts";
import { packedFieldStore } from "../../../pipeline/forecast/packed-store.ts";
import { runForecast } from "../../../pipeline/forecast/step.ts";
import { FIXTURES, runPayloads, tempContext } from "./helpers.ts";

const cleanup: string[] = [];
afterAll(async () => {
  for (const d of cleanup) await rm(d, { recursive: true, force: true });
});


/** Every file under a directory, relative. */
async function files(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

/** A store that must never be written: proof that no field was decoded to a copy. */
function refusingStore(): FieldStore {
  return {
    put: (key) => {
      throw new Error(`a decoded copy of ${key} was stored`);
    },
    has: () => false,
    band: (key) => {
      throw new Error(`no decoded field ${key}`);
    },
    close: () => undefined,
  };
}

describe("large runs: fields decoded band by band, payload written into the run file", () => {
  it("the Alaska sub-grids (two 5.0 messages per field) assemble to the same payload as in memory, without a decoded copy", async () => {
    const source = localSource([path.join(EMBEDDED_DIR, "grib")]);
    const domain = GFS_ALASKA_0P5;
    const steps = domain.steps.slice(0, 12);
    const files = domain.files(undefined, steps).map((f) => f.path);
    const built = [];
    for (const store of [memoryFieldStore(), packedFieldStore({ grid: domain.grid, bandRows: TILE.lat, fallback: refusingStore() })]) {
      const collected = await collectFields({ domain, steps, files, source, codec: GRIB_CODEC, store, logger: silentLogger });
      const run = [...collected.runs.values()][0]!;
      const payload = buildRun(domain, run, store, silentLogger, { steps }).payload;
      built.push(Buffer.concat(payload.chunks));
      store.close();
    }
    expect(built[0]!.length).toBeGreaterThan(10_000);
    expect(built[1]!.equals(built[0]!)).toBe(true);
  });

  it("GFS 0.25° in NOMADS layout and the 1° precipitation (5.3, windows differenced) through the step: same payloads, the run file written in place", async () => {
    const nomads = path.join(FIXTURES, "nomads");
    const grib = path.join(EMBEDDED_DIR, "grib");
    const inMemory = await tempContext("fc-mem-");
    const onDisk = await tempContext("fc-disk-");
    cleanup.push(inMemory.config.dataDir, onDisk.config.dataDir);
    const runs = [
      ["--model", "gfs025", "--run", "2020032518", "--steps", "6,18", "--source", nomads],
      ["--model", "gfs-1p0-precip", "--source", grib],
    ];
    for (const args of runs) {
      await runForecast(args, inMemory);
      // Nothing held in memory: every field packed, every payload spilled.
      await runForecast(args, onDisk, GRIB_CODEC, { memoryBudgetBytes: 0, spillValues: 0 });
    }
    const a = await runPayloads(inMemory.config.dataDir);
    const b = await runPayloads(onDisk.config.dataDir);
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    expect(a.size).toBeGreaterThanOrEqual(2);
    for (const [file, bytes] of a) expect(b.get(file)!.equals(bytes), file).toBe(true);
    // Only the run files and the index: no temporary file left.
    const left = await files(path.join(onDisk.config.dataDir, "forecast"));
    expect(left).toEqual(["index.bin", ...[...a.keys()]].sort());
    // The run file is the header then the payload, nothing more (the spill became the file).
    for (const [file, bytes] of b) {
      const size = (await stat(path.join(onDisk.config.dataDir, "forecast", file))).size;
      const raw = await readFile(path.join(onDisk.config.dataDir, "forecast", file));
      const opened = openEnvelope(raw, { magic: DATASETS.forecast.magic, formatVersion: DATASETS.forecast.formatVersion, file });
      expect(size).toBe(opened.payloadOffset + bytes.length);
    }
  });

  it("a failed large build leaves no temporary run file", async () => {
    const ctx = await tempContext("fc-fail-");
    cleanup.push(ctx.config.dataDir);
    const src = path.join(ctx.config.dataDir, "src");
    const dir = path.join(src, "gfs.20200325", "18", "atmos");
    await mkdir(dir, { recursive: true });
    for (const h of ["006", "018"]) await copyFile(path.join(FIXTURES, "nomads", "gfs.20200325", "18", "atmos", `gfs.t18z.pgrb2.0p25.f${h}`), path.join(dir, `gfs.t18z.pgrb2.0p25.f${h}`));
    // The second model's file cut in the middle of a message: gfs025 is built (its payload spilled
    // into a temporary run file), then the 1° model fails before anything is published.
    const onedeg = "GFS_Global_onedeg_20220627_0000.TotalPrecip.Out48hrs.grib2";
    const bytes = await readFile(path.join(EMBEDDED_DIR, "grib", onedeg));
    await writeFile(path.join(src, onedeg), bytes.subarray(0, 100_000));
    const args = ["--model", "gfs025,gfs-1p0-precip", "--run", "2020032518", "--steps", "6,18", "--source", src];
    await expect(runForecast(args, ctx, GRIB_CODEC, { memoryBudgetBytes: 0, spillValues: 0 })).rejects.toThrow(/GFS_Global_onedeg/);
    expect(await files(path.join(ctx.config.dataDir, "forecast"))).toEqual([]);
  });
});
