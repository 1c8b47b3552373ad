/**
 * The forecast dataset through the nightly, with the mirror as a local directory laid out like
 * the upstream (`<dir>/<host>/<path>`): the committed 2.5° GFS sample files are published as a
 * release, and a second run that finds no new run keeps that release (status unchanged).
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig, type Config } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { EMBEDDED_DIR } from "../../../datasets/common/paths.ts";
import { parseNightlyConfig } from "../../../pipeline/nightly/config.ts";
import { currentRelease } from "../../../pipeline/releases/release-dir.ts";
import { runNightly } from "../../../pipeline/nightly/run.ts";
import { STEPS } from "../../../pipeline/steps.ts";

let dir: string;
let config: Config;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-nightly-fc-"));
  const mirrored = path.join(dir, "mirror", "nomads.example.org", "gfs");
  await fs.mkdir(mirrored, { recursive: true });
  for (const f of ["gfs.2011011012.f120.2p5deg.grib2", "gfs.2011100800.f072.2p5deg.grib2"]) await fs.copyFile(path.join(EMBEDDED_DIR, "grib", f), path.join(mirrored, f));
  config = { ...readConfig({ GEODATA_DATA_DIR: path.join(dir, "data") }), mirror: path.join(dir, "mirror") };
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe("nightly forecast", () => {
  it("publishes the runs found, then keeps the release when no new run appeared", async () => {
    const nightly = parseNightlyConfig({ datasets: { forecast: { sources: { base: "https://nomads.example.org/gfs/" }, args: ["--model", "gfs-2p5-sample"] } } }, path.join(dir, "c.json"));
    const first = await runNightly({ config, nightly, allowlist: [], steps: STEPS, logger: silentLogger, force: false });
    // The two committed sample files are two runs (2011-01-10 12 UTC and 2011-10-08 00 UTC).
    expect(first[0]).toMatchObject({ dataset: "forecast", status: "published", counts: { runs: 2, models: 1 } });
    // Named by the upstream URL, not the mirror's directory; read from disk, so nothing fetched.
    expect(first[0]).toMatchObject({ bytesFetched: 0, sources: [{ url: "https://nomads.example.org/gfs/", status: "local", model: "gfs-2p5-sample", runs: ["2011-10-08T00:00:00.000Z", "2011-01-10T12:00:00.000Z"], files: 2, bytesFetched: 0 }] });
    const second = await runNightly({ config, nightly, allowlist: [], steps: STEPS, logger: silentLogger, force: false });
    expect(second[0]).toMatchObject({ status: "unchanged", release: first[0]!.release });
    expect((await currentRelease(config.dataDir, "forecast"))?.id).toBe(first[0]!.release);
  }, 120_000);
});
