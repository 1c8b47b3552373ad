/**
 * `sync` end to end, from a builder's data directory served over HTTP by a static server that
 * lists nothing (test/helpers/upstream-mirror.ts: files by path, Range, ETag, injected faults) and
 * from the same directory mounted: the builder's releases are made of the embedded default's real
 * forecast, elevation and stations files. Covered: a new release pulled and pointed at last,
 * unchanged files hard-linked (same inode as the previous release's), a dropped connection
 * resumed by Range, a tampered and a truncated file refusing their release while the old one
 * stays current and other datasets still sync (non-zero exit, a JSON line per dataset; what the
 * failed runs assembled removed), pruning to GEODATA_KEEP_RELEASES, and what a killed run left
 * removed.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatasetName } from "../../../datasets/catalog.ts";
import { readConfig, type Config } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { decodeIndex, writeIndex } from "../../../datasets/forecast/index-file.ts";
import { releaseDirOf, releasesRoot } from "../../../datasets/releases/layout.ts";
import { locateDataset } from "../../../datasets/releases/locate.ts";
import { parseManifest } from "../../../datasets/releases/manifest.ts";
import { openOrigin } from "../../../pipeline/sync/origin.ts";
import { runSync, syncDataset } from "../../../pipeline/sync/run.ts";
import type { SyncSummary } from "../../../pipeline/sync/summary.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { linkRelease, linkTree, pointAt, writeManifest } from "../../helpers/releases.ts";
import { UpstreamMirror } from "../../helpers/upstream-mirror.ts";

const R1 = "20261101T000000Z";
const R2 = "20261102T000000Z";
const R3 = "20261103T000000Z";
const R4 = "20261104T000000Z";

let builder: string;
let node: string;
let config: Config;
const mirror = new UpstreamMirror();

/** Serves every file of the builder's data directory at its path (no directory listing). */
async function serveBuilder(dir = "", at = builder): Promise<void> {
  for (const e of await fs.readdir(path.join(at, dir), { withFileTypes: true })) {
    const rel = dir === "" ? e.name : `${dir}/${e.name}`;
    if (e.isDirectory()) await serveBuilder(rel, at);
    else if (e.isFile()) mirror.put(rel, await fs.readFile(path.join(at, rel)), (await fs.stat(path.join(at, rel))).mtime);
  }
}

const sync = (datasets: DatasetName[], o: Partial<Parameters<typeof runSync>[0]> = {}) =>
  runSync({ config, origin: openOrigin(mirror.baseUrl), logger: silentLogger, datasets, backoffMs: 5, ...o });

async function current(dataset: DatasetName): Promise<string | undefined> {
  return (await locateDataset(node, dataset)).release;
}

/** Writes a new file in place of `file` (not through it: the builder's releases share files by hard links). */
async function replaceFile(file: string, content: string | Buffer): Promise<void> {
  await fs.rm(file);
  await fs.writeFile(file, content);
}

/** `npm run pipeline -- <args>`, asynchronously (the mirror answers from this process meanwhile). */
function runCli(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, "node_modules", "tsx", "dist", "cli.mjs"), path.join(PROJECT_ROOT, "pipeline", "cli.ts"), ...args], { env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** Forecast release `id` on the builder: R1's runs but those of the model listed `k`-th, and a new index listing the rest. */
async function forecastWithout(id: string, k: number): Promise<void> {
  const r1 = path.join(releaseDirOf(builder, "forecast", R1), "forecast");
  const to = path.join(releaseDirOf(builder, "forecast", id), "forecast");
  await linkTree(r1, to);
  const { index, metadata } = decodeIndex(await fs.readFile(path.join(r1, "index.bin")), "index.bin");
  const dropped = [...new Set(index.runs.map((r) => r.model))][k]!;
  await fs.rm(path.join(to, dropped), { recursive: true });
  await fs.rm(path.join(to, "index.bin"));
  await writeIndex(path.join(to, "index.bin"), { runs: index.runs.filter((r) => r.model !== dropped) }, metadata.sources);
}

async function inode(file: string): Promise<number> {
  return (await fs.stat(file)).ino;
}

beforeAll(async () => {
  builder = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-builder-"));
  node = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-node-"));
  config = readConfig({ GEODATA_DATA_DIR: node, GEODATA_KEEP_RELEASES: "2" });
  await linkRelease(builder, "forecast", R1, await defaultDatasetDir("forecast"));
  await linkRelease(builder, "elevation", R1, await defaultDatasetDir("elevation"));
  await pointAt(builder, "forecast", R1);
  await pointAt(builder, "elevation", R1);
  await serveBuilder();
  await mirror.start();
}, 600_000);

afterAll(async () => {
  await mirror.stop();
  for (const dir of [builder, node]) if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe("sync over HTTP", () => {
  let first: SyncSummary[];

  it("pulls a new release, files first, resuming a dropped connection by Range, and points at it last", async () => {
    const tile = `releases/elevation/${R1}/elevation/global/etopo5.tif`;
    const tileBytes = mirror.files.get(`/${tile}`)!.body.length;
    mirror.fault(tile, "drop-mid-body");
    first = await sync(["forecast", "elevation"]);
    expect(first.map((s) => [s.dataset, s.status, s.release])).toEqual([["forecast", "synced", R1], ["elevation", "synced", R1]]);
    expect(await current("forecast")).toBe(R1);
    // The tile: half in a 200, the rest by Range in a 206, no byte fetched twice.
    const tileRequests = mirror.requests.filter((r) => r.path === `/${tile}`);
    expect(tileRequests.map((r) => r.status)).toEqual([200, 206]);
    const resumedAt = Number(/^bytes=(\d+)-$/.exec(tileRequests[1]!.range ?? "")?.[1]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThanOrEqual(Math.floor(tileBytes / 2));
    const elevation = first.find((s) => s.dataset === "elevation")!;
    expect(elevation).toMatchObject({ resumed: 1, linked: 0 });
    expect(elevation.bytesFetched).toBe(elevation.bytes);
    // Every file as the builder has it, the pointer written after the last of them.
    for (const dataset of ["forecast", "elevation"] as const) {
      const manifest = parseManifest(await fs.readFile(path.join(releaseDirOf(node, dataset, R1), "release.json"), "utf8"), "release.json", { dataset, id: R1 });
      let newest = 0;
      for (const f of manifest.files!) {
        const [mine, theirs] = await Promise.all([fs.readFile(path.join(releaseDirOf(node, dataset, R1), f.path)), fs.readFile(path.join(releaseDirOf(builder, dataset, R1), f.path))]);
        expect(mine.equals(theirs)).toBe(true);
        newest = Math.max(newest, (await fs.stat(path.join(releaseDirOf(node, dataset, R1), f.path))).mtimeMs);
      }
      expect((await fs.stat(path.join(releasesRoot(node, dataset), "current.txt"))).mtimeMs).toBeGreaterThanOrEqual(newest);
      expect((await fs.readdir(releasesRoot(node, dataset))).sort()).toEqual([R1, "current", "current.txt"]);
    }
  }, 120_000);

  it("asks for the pointer only, conditionally, when nothing changed", async () => {
    const etags = new Map();
    await sync(["forecast"], { etags });
    const before = mirror.requests.length;
    const [again] = await sync(["forecast"], { etags });
    expect(again).toMatchObject({ status: "unchanged", release: R1, downloaded: 0 });
    expect(mirror.requests.slice(before).map((r) => [r.path, r.status, r.conditional])).toEqual([[`/releases/forecast/current.txt`, 304, true]]);
  });

  it("hard-links the files a new release keeps and downloads only the new ones", async () => {
    // R2: R1's runs but one model's, and the new index listing them (real bytes, rewritten).
    await forecastWithout(R2, 0);
    const r2 = path.join(releaseDirOf(builder, "forecast", R2), "forecast");
    await writeManifest(builder, "forecast", R2);
    await pointAt(builder, "forecast", R2);
    await serveBuilder();
    const before = mirror.requests.length;
    const [s] = await sync(["forecast"]);
    expect(s).toMatchObject({ status: "synced", release: R2, previousRelease: R1, downloaded: 1 });
    expect(s!.linked).toBe(s!.files - 1);
    expect(s!.bytesFetched).toBe((await fs.stat(path.join(r2, "index.bin"))).size);
    expect(mirror.requests.slice(before).map((r) => r.path).sort()).toEqual([`/releases/forecast/${R2}/forecast/index.bin`, `/releases/forecast/${R2}/release.json`, "/releases/forecast/current.txt"]);
    const manifest = parseManifest(await fs.readFile(path.join(releaseDirOf(node, "forecast", R2), "release.json"), "utf8"), "release.json", { dataset: "forecast", id: R2 });
    for (const f of manifest.files!.filter((f) => f.path !== "forecast/index.bin")) {
      expect(await inode(path.join(releaseDirOf(node, "forecast", R2), f.path))).toBe(await inode(path.join(releaseDirOf(node, "forecast", R1), f.path)));
    }
    expect(await current("forecast")).toBe(R2);
  }, 120_000);

  it("refuses a release with a tampered file (same size, other bytes) and one with a truncated file; the old ones stay, the others sync, exit 1", async () => {
    // forecast R3: R1's runs but another model's, with their new index, altered after its
    // release.json was written (a file this node does not hold: a copy held would be linked).
    await forecastWithout(R3, 1);
    await writeManifest(builder, "forecast", R3);
    const manifest = parseManifest(await fs.readFile(path.join(releaseDirOf(builder, "forecast", R3), "release.json"), "utf8"), "release.json", { dataset: "forecast", id: R3 });
    const victim = manifest.files!.find((f) => f.path === "forecast/index.bin")!;
    const victimFile = path.join(releaseDirOf(builder, "forecast", R3), victim.path);
    const bytes = await fs.readFile(victimFile);
    bytes[bytes.length >> 1] ^= 0x01;
    await replaceFile(victimFile, bytes);
    await pointAt(builder, "forecast", R3);
    // stations R1, new to this node: its database served shorter than its release.json says.
    await linkRelease(builder, "stations", R1, await defaultDatasetDir("stations"));
    await pointAt(builder, "stations", R1);
    // elevation R2: R1's files again (a rebuild that changed nothing).
    await linkRelease(builder, "elevation", R2, releaseDirOf(builder, "elevation", R1));
    await pointAt(builder, "elevation", R2);
    await serveBuilder();
    const database = await fs.readFile(path.join(releaseDirOf(builder, "stations", R1), "stations", "stations.duckdb"));
    mirror.put(`releases/stations/${R1}/stations/stations.duckdb`, database.subarray(0, database.length - 1000));

    // Through the command line: exit status and one summary line per dataset.
    const cli = await runCli(["sync", "--from", mirror.baseUrl, "--data-dir", node, "--datasets", "forecast,elevation,stations"], { GEODATA_LOG_LEVEL: "warn", GEODATA_KEEP_RELEASES: "2" });
    expect(cli.status).toBe(1);
    const lines = cli.stdout.trim().split("\n").map((l) => JSON.parse(l) as SyncSummary & { msg: string });
    expect(lines.map((l) => [l.msg, l.dataset, l.status, l.release])).toEqual([
      ["sync dataset", "forecast", "failed", R2],
      ["sync dataset", "elevation", "synced", R2],
      ["sync dataset", "stations", "failed", undefined],
    ]);
    expect(lines[0]!.reason).toBe(`releases/forecast/${R3}/${victim.path} (from ${mirror.baseUrl}/releases/forecast/${R3}/${victim.path}): expected SHA-256 ${victim.sha256}, got ${createHash("sha256").update(bytes).digest("hex")}`);
    expect(lines[2]!.reason).toBe(`releases/stations/${R1}/stations/stations.duckdb (from ${mirror.baseUrl}/releases/stations/${R1}/stations/stations.duckdb): expected ${database.length} bytes, got ${database.length - 1000} bytes`);
    expect(lines[1]).toMatchObject({ linked: lines[1]!.files, bytesFetched: 0 });
    expect(await current("forecast")).toBe(R2);
    expect(await current("stations")).toBeUndefined();
    // Nothing of the refused releases is pointed at, and what their failed runs assembled is gone.
    expect((await fs.readdir(releasesRoot(node, "forecast"))).filter((n) => n.includes(R3))).toEqual([]);
    expect((await fs.readdir(releasesRoot(node, "stations"))).filter((n) => n.startsWith(".sync-"))).toEqual([]);
  }, 120_000);

  it("syncs the refused release whole once the builder mends it, and prunes to GEODATA_KEEP_RELEASES", async () => {
    // The builder serves the whole database again, and publishes forecast R4 (R2's files).
    await serveBuilder(`releases/stations/${R1}`);
    await linkTree(releaseDirOf(builder, "forecast", R2), releaseDirOf(builder, "forecast", R4));
    await replaceFile(path.join(releaseDirOf(builder, "forecast", R4), "release.json"), (await fs.readFile(path.join(releaseDirOf(builder, "forecast", R2), "release.json"), "utf8")).replaceAll(R2, R4));
    await pointAt(builder, "forecast", R4);
    await serveBuilder("releases/forecast");
    const summaries = await sync(["forecast", "stations"]);
    expect(summaries.map((s) => [s.dataset, s.status, s.release])).toEqual([["forecast", "synced", R4], ["stations", "synced", R1]]);
    expect(summaries[0]).toMatchObject({ pruned: [R1], downloaded: 0 });
    expect((await fs.readdir(releasesRoot(node, "forecast"))).sort()).toEqual([R2, R4, "current", "current.txt"]);
    // stations: the failed run kept nothing; every file (database, its two exports, stations.idx)
    // downloaded again, none counted as resumed.
    expect(summaries[1]).toMatchObject({ kept: 0, downloaded: 4, resumed: 0, bytesFetched: summaries[1]!.bytes });
  }, 120_000);
});

describe("sync from a mounted directory", () => {
  it("refuses a release with a file missing, then copies a complete one and removes what killed runs left", async () => {
    const dirNode = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-node-dir-"));
    const builder = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-builder-dir-"));
    try {
      const dirConfig = { ...config, dataDir: dirNode };
      const built = path.join(await defaultDatasetDir("stations"), "stations", "stations.duckdb");
      // R1 on the builder lists its database, which is not there (deleted after release.json was written).
      await linkRelease(builder, "stations", R1, await defaultDatasetDir("stations"));
      const gone = path.join(releaseDirOf(builder, "stations", R1), "stations", "stations.duckdb");
      await fs.rm(gone);
      await pointAt(builder, "stations", R1);
      const missing = await syncDataset("stations", { config: dirConfig, origin: openOrigin(builder), logger: silentLogger });
      expect(missing).toMatchObject({ status: "failed", release: undefined });
      expect(missing.reason).toBe(`releases/stations/${R1}/stations/stations.duckdb (from ${gone}): expected a file of ${(await fs.stat(built)).size} bytes, got nothing (not found)`);
      expect(await locateDataset(dirNode, "stations")).toMatchObject({ release: undefined });

      // A killed run's assembly of another release and a temporary pointer, beside the failed R1's.
      await fs.mkdir(path.join(releasesRoot(dirNode, "stations"), ".sync-20261001T000000Z", "stations"), { recursive: true });
      await fs.writeFile(path.join(releasesRoot(dirNode, "stations"), ".sync-20261001T000000Z", "stations", "stations.duckdb.part"), "partial");
      await fs.writeFile(path.join(releasesRoot(dirNode, "stations"), "current.txt.tmp-99999-abcd1234"), R1);
      await linkRelease(builder, "stations", R2, await defaultDatasetDir("stations"));
      await pointAt(builder, "stations", R2);
      const s = await syncDataset("stations", { config: dirConfig, origin: openOrigin(builder), logger: silentLogger });
      expect(s).toMatchObject({ status: "synced", release: R2, downloaded: 4 });
      expect((await fs.readFile(path.join(releaseDirOf(dirNode, "stations", R2), "stations", "stations.duckdb"))).equals(await fs.readFile(built))).toBe(true);
      expect((await fs.readdir(releasesRoot(dirNode, "stations"))).sort()).toEqual([R2, "current", "current.txt"]);
    } finally {
      await fs.rm(dirNode, { recursive: true, force: true });
      await fs.rm(builder, { recursive: true, force: true });
    }
  }, 120_000);
});
