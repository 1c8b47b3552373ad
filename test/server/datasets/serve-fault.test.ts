/**
 * A fault found while serving (server/datasets/fault-check.ts): bit rot keeps a file's size and
 * times, so only reading its bytes finds it. Real data: the embedded default's elevation dataset,
 * R1 hard-linked from the built default, R2 real copies whose tile is damaged in place while the
 * server serves R2. The lookups that read a damaged block answer 503 naming elevation; the fault
 * is logged, the tile hashed again and found damaged, and R1 (the newest older release that
 * passes) serves instead; /health says which release was refused and why. Without an older
 * release the dataset stays up, `degraded`, and /health/ready still counts it as serving.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../../../datasets/common/config.ts";
import { DataFormatError } from "../../../datasets/common/errors.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { releaseDirOf } from "../../../datasets/releases/layout.ts";
import { loadDatasets } from "../../../server/datasets/registry.ts";
import { Reloader } from "../../../server/datasets/reload.ts";
import { LOADERS } from "../../../server/loaders.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { linkRelease, pointAt, writeManifest } from "../../helpers/releases.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { until } from "../../helpers/until.ts";

const R1 = "20261101T000000Z";
const R2 = "20261102T000000Z";
const TILE = "elevation/srtm3/N00E010.tif";

interface ElevationHealth {
  status: string;
  release?: string;
  refused?: { release: string; reason: string };
  degraded?: { count: number; file?: string; check: string; checkReason?: string };
}

let built: string;
const dirs: string[] = [];

/** A data directory with elevation release `id` made of copies of the built files (safe to damage in place). */
async function copiedRelease(dir: string, id: string): Promise<void> {
  await fs.cp(path.join(built, "elevation"), path.join(releaseDirOf(dir, "elevation", id), "elevation"), { recursive: true });
  await writeManifest(dir, "elevation", id);
}

/** Flips one byte in every KiB of the middle of `file`, in place (size and inode kept). */
async function rot(file: string): Promise<void> {
  const bytes = await fs.readFile(file);
  for (let at = Math.floor(bytes.length * 0.2); at < bytes.length * 0.9; at += 1024) bytes[at]! ^= 0x5a;
  const handle = await fs.open(file, "r+");
  await handle.write(bytes, 0, bytes.length, 0);
  await handle.close();
}

async function elevationHealth(server: TestServer): Promise<ElevationHealth> {
  const body = (await (await server.get("/health", { key: null })).json()) as { content: { datasets: Array<ElevationHealth & { name: string }> } };
  return body.content.datasets.find((d) => d.name === "elevation")!;
}

/** Points over the damaged tile, 10 x 10. */
const GRID = Array.from({ length: 100 }, (_, i) => `/elevation/point/2/json?lat=${(0.05 + (i % 10) * 0.1).toFixed(2)}&lon=${(10.05 + Math.floor(i / 10) * 0.1).toFixed(2)}`);

beforeAll(async () => {
  built = await defaultDatasetDir("elevation");
}, 600_000);

afterAll(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

describe("faults found while serving", () => {
  it("answers 503 for a damaged block, checks the tile again, finds it damaged and serves the newest older release", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-serve-fault-"));
    dirs.push(dir);
    await linkRelease(dir, "elevation", R1, built);
    await copiedRelease(dir, R2);
    await pointAt(dir, "elevation", R2);
    // No scrub: the lookups, not the scrub, are to find the damage.
    const server = await startTestServer({ dataDir: dir, env: { GEODATA_RELEASE_POLL_MS: "0", GEODATA_SCRUB_PERIOD_HOURS: "0" } });
    try {
      expect(await elevationHealth(server)).toMatchObject({ status: "ready", release: R2 });
      await rot(path.join(releaseDirOf(dir, "elevation", R2), TILE));
      let failed: Response | undefined;
      for (const url of GRID) {
        const r = await server.get(url);
        if (r.status !== 200) {
          failed = r;
          break;
        }
      }
      expect(failed?.status).toBe(503);
      expect(((await failed!.json()) as { message: string }).message).toContain("'elevation'");

      const health = await until("elevation served from R1", async () => {
        const h = await elevationHealth(server);
        return h.release === R1 ? h : undefined;
      });
      expect(health).toMatchObject({ status: "ready", release: R1, refused: { release: R2 } });
      expect(health.refused!.reason).toMatch(new RegExp(`^releases/elevation/${R2}/${TILE}: expected SHA-256 [0-9a-f]{64}, got SHA-256 [0-9a-f]{64}$`));
      const answers = await Promise.all(GRID.map((url) => server.get(url)));
      expect(answers.map((a) => a.status)).toEqual(GRID.map(() => 200));

      const logged = server.logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(logged.find((l) => l.msg === "dataset fault while serving; checking the file again")).toMatchObject({ level: "error", dataset: "elevation", release: R2, file: `releases/elevation/${R2}/${TILE}` });
      expect(logged.find((l) => l.msg === "file damaged on disk")).toMatchObject({ dataset: "elevation", release: R2 });
      expect(logged.find((l) => l.msg === "damaged release refused; serving the newest older release that passes its checks")).toMatchObject({ refused: R2, serving: R1 });
      expect(server.logLines.join("\n")).not.toContain(dir);
    } finally {
      await server.close();
    }
  }, 120_000);

  it("keeps a damaged release with no older one serving, degraded; a fault in an intact file is degraded too, its check intact", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-serve-fault-alone-"));
    dirs.push(dir);
    await copiedRelease(dir, R2);
    await pointAt(dir, "elevation", R2);
    const config = readConfig({ GEODATA_DATA_DIR: dir });
    const registry = await loadDatasets(config, silentLogger, LOADERS);
    const reloader = new Reloader({ config, logger: silentLogger, registry, loaders: LOADERS });
    try {
      const tile = path.join(releaseDirOf(dir, "elevation", R2), TILE);
      const state = () => registry.list().find((d) => d.name === "elevation")!;

      // A fault in the intact global DEM (as a reader reports it: the file's full path).
      const global = path.join(releaseDirOf(dir, "elevation", R2), "elevation", "global", "etopo5.tif");
      expect(registry.reportFault("elevation", global, new DataFormatError({ file: global, offset: 4096 }, "a zlib stream for tile 3", "incorrect header check"))).toBe(true);
      expect(state()).toMatchObject({ status: "degraded", degraded: { count: 1, file: `releases/elevation/${R2}/elevation/global/etopo5.tif`, check: "running" } });
      await until("the check of the global DEM", () => state().degraded?.check === "intact");
      expect(state().degraded!.reason).toBe(`releases/elevation/${R2}/elevation/global/etopo5.tif, offset 4096: expected a zlib stream for tile 3, got incorrect header check`);
      expect(registry.isReady("elevation")).toBe(true);

      // Then the tile rots: reported (relative to the release, as a reader may name it), damaged, nothing to fall back to.
      await rot(tile);
      registry.reportFault("elevation", TILE, new DataFormatError({ file: TILE, offset: 0 }, "a zlib stream", "invalid distance too far back"));
      await until("the check of the tile", () => state().degraded?.check === "damaged");
      expect(state()).toMatchObject({ status: "degraded", release: R2, degraded: { count: 2, file: TILE, check: "damaged" } });
      expect(state().degraded!.checkReason).toMatch(new RegExp(`^releases/elevation/${R2}/${TILE}: expected SHA-256 [0-9a-f]{64}, got SHA-256 [0-9a-f]{64}$`));
      expect(registry.isReady("elevation")).toBe(true);
      // The same file again: counted, not checked again.
      registry.reportFault("elevation", TILE, new DataFormatError({ file: TILE }, "a zlib stream", "invalid block type"));
      expect(state().degraded).toMatchObject({ count: 3, check: "damaged" });
    } finally {
      await reloader.stop();
      await registry.close();
    }
  }, 120_000);
});
