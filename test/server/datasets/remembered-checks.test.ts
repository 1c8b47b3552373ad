/**
 * The checks a server remembers across restarts (datasets/releases/checked-files.ts), and what a
 * refused current release does at startup. Real data: the embedded default's elevation dataset,
 * as two releases: R1 hard-linked from the built default, R2 real copies (written in place here,
 * never through a link). A restart over unchanged files hashes none of them; a tile changed
 * after it was remembered (its modification time even set back) is hashed again and refuses R2;
 * the server then serves R1, the newest older release that passes, says so in /health and the
 * log, and a poll does not hash the refused R2 again.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { CHECKED_FILE } from "../../../datasets/releases/checked-files.ts";
import { releaseDirOf } from "../../../datasets/releases/layout.ts";
import { parseManifest } from "../../../datasets/releases/manifest.ts";
import { loadDatasets } from "../../../server/datasets/registry.ts";
import { Reloader } from "../../../server/datasets/reload.ts";
import { LOADERS } from "../../../server/loaders.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { linkRelease, pointAt, writeManifest } from "../../helpers/releases.ts";
import { startTestServer } from "../../helpers/server.ts";

const R1 = "20261101T000000Z";
const R2 = "20261102T000000Z";
const TILE = "elevation/srtm3/N00E010.tif";
/** The tile's modification time, a whole second so that setting it back is exact to the nanosecond. */
const TILE_MTIME = new Date(Date.UTC(2026, 9, 1));

let dir: string;

interface Health {
  content: { state: string; datasets: Array<{ name: string; status: string; release?: string; refused?: { release: string; reason: string } }> };
}

/** Starts the server on `dir`, returns the elevation line of its "dataset loaded" log and its /health, then stops it. */
async function startOnce(): Promise<{ loaded: { release: string; check: { files: number; hashed: number; hashedBytes: number } } | undefined; health: Health; ready: string; point: number; logLines: string[] }> {
  const server = await startTestServer({ dataDir: dir, env: { GEODATA_RELEASE_POLL_MS: "0" } });
  try {
    const lines = server.logLines.map((l) => JSON.parse(l) as { msg: string; dataset?: string } & Record<string, unknown>);
    const loaded = lines.find((l) => l.msg === "dataset loaded" && l.dataset === "elevation") as { release: string; check: { files: number; hashed: number; hashedBytes: number } } | undefined;
    const health = (await (await server.get("/health", { key: null })).json()) as Health;
    const ready = await (await server.get("/health/ready", { key: null })).text();
    const point = (await server.get("/elevation/point/2/json?lat=0.5&lon=10.5")).status;
    return { loaded, health, ready, point, logLines: server.logLines };
  } finally {
    await server.close();
  }
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-remembered-"));
  const built = await defaultDatasetDir("elevation");
  await linkRelease(dir, "elevation", R1, built);
  await fs.cp(path.join(built, "elevation"), path.join(releaseDirOf(dir, "elevation", R2), "elevation"), { recursive: true });
  await fs.utimes(path.join(releaseDirOf(dir, "elevation", R2), TILE), TILE_MTIME, TILE_MTIME);
  await writeManifest(dir, "elevation", R2);
  await pointAt(dir, "elevation", R2);
}, 600_000);

afterAll(async () => {
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe("checks remembered across restarts", () => {
  it("hashes every file at the first start, none at a restart over unchanged files", async () => {
    const manifest = parseManifest(await fs.readFile(path.join(releaseDirOf(dir, "elevation", R2), "release.json"), "utf8"), "release.json", { dataset: "elevation", id: R2 });
    const first = await startOnce();
    expect(first.loaded).toMatchObject({ release: R2, check: { files: manifest.files.length, hashed: manifest.files.length } });
    const remembered = JSON.parse(await fs.readFile(path.join(dir, "releases", CHECKED_FILE), "utf8")) as { files: Record<string, { path: string; sha256: string }> };
    const bySha = new Map(Object.values(remembered.files).map((e) => [e.path, e.sha256]));
    for (const f of manifest.files) expect(bySha.get(`releases/elevation/${R2}/${f.path}`)).toBe(f.sha256);

    const again = await startOnce();
    expect(again.loaded).toMatchObject({ release: R2, check: { files: manifest.files.length, hashed: 0, hashedBytes: 0 } });
    expect(again.health.content.datasets.find((d) => d.name === "elevation")).toMatchObject({ status: "ready", release: R2 });
  }, 120_000);

  it("refuses a release whose file changed after it was remembered, and serves the newest older release that passes", async () => {
    // One flipped byte, written in place, the modification time set back: only ctime tells.
    const tile = path.join(releaseDirOf(dir, "elevation", R2), TILE);
    const before = await fs.stat(tile, { bigint: true });
    const handle = await fs.open(tile, "r+");
    const byte = Buffer.alloc(1);
    const at = Number(before.size) - 5000;
    await handle.read(byte, 0, 1, at);
    byte[0]! ^= 0x04;
    await handle.write(byte, 0, 1, at);
    await handle.close();
    await fs.utimes(tile, TILE_MTIME, TILE_MTIME);
    const now = await fs.stat(tile, { bigint: true });
    expect([now.size, now.mtimeNs, now.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    expect(now.ctimeNs).not.toBe(before.ctimeNs);

    const after = await startOnce();
    const elevation = after.health.content.datasets.find((d) => d.name === "elevation")!;
    expect(elevation).toMatchObject({ status: "ready", release: R1, refused: { release: R2 } });
    expect(elevation.refused!.reason).toMatch(new RegExp(`^releases/elevation/${R2}/${TILE}: expected SHA-256 [0-9a-f]{64}, got [0-9a-f]{64}$`));
    // The other datasets are not built here: ready names them, not elevation.
    expect(after.ready).toContain("'places'");
    expect(after.ready).not.toContain("'elevation'");
    expect(after.point).toBe(200);
    const line = after.logLines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === "current release refused at startup; serving the newest older release that passes its checks");
    expect(line).toMatchObject({ level: "error", dataset: "elevation", refused: R2, serving: R1 });
    expect(after.logLines.join("\n")).not.toContain(dir);

    // A poll (no signal) does not try the refused release again: nothing re-hashed every interval.
    const config = readConfig({ GEODATA_DATA_DIR: dir });
    const registry = await loadDatasets(config, silentLogger, LOADERS);
    try {
      expect(registry.releaseOf("elevation")).toBe(R1);
      const reloader = new Reloader({ config, logger: silentLogger, registry, loaders: LOADERS });
      expect(await reloader.reloadAll(false)).toEqual([]);
      // SIGHUP does, and refuses it again.
      expect((await reloader.reloadAll(true)).find((o) => o.dataset === "elevation")).toMatchObject({ result: "refused", release: R2 });
      await reloader.stop();
    } finally {
      await registry.close();
    }
  }, 120_000);
});
