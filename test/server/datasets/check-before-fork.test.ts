/**
 * The primary's check before it forks (server/datasets/check-before-fork.ts), on real data: the
 * embedded default's elevation and stations datasets as releases hard-linked into a new data
 * directory (new files: never hashed there). The check hashes them once and remembers them, so a
 * second check and the workers' own (loadDatasets, as each worker opens its datasets) read none;
 * a release with a damaged file is logged, not thrown, and the worker's check still refuses it.
 * Through the cluster: two workers started on new releases hash nothing themselves.
 */
import type { ChildProcess } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readConfig } from "../../../datasets/common/config.ts";
import { createLogger, silentLogger } from "../../../datasets/common/log.ts";
import { releaseDirOf } from "../../../datasets/releases/layout.ts";
import { checkCurrentReleases } from "../../../server/datasets/check-before-fork.ts";
import { loadDatasets } from "../../../server/datasets/registry.ts";
import { LOADERS } from "../../../server/loaders.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { linkRelease, pointAt } from "../../helpers/releases.ts";
import { until } from "../../helpers/until.ts";
import { jsonLines, startCluster } from "../primary-cluster.ts";

const R1 = "20261101T000000Z";
const DATASETS = ["elevation", "stations"] as const;

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-check-before-fork-"));
  for (const name of DATASETS) {
    await linkRelease(dir, name, R1, await defaultDatasetDir(name));
    await pointAt(dir, name, R1);
  }
}, 300_000);
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** A logger that keeps its lines. */
function recordingLogger(): { logger: ReturnType<typeof createLogger>; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ minLevel: "info", sink: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

describe("checkCurrentReleases", () => {
  it("hashes every current release's files once and remembers them: the next check and the workers' read none", async () => {
    const first = await checkCurrentReleases(dir, silentLogger);
    expect(first).toMatchObject({ releases: 2, failed: 0 });
    expect(first.hashed).toBeGreaterThan(0);
    expect(await checkCurrentReleases(dir, silentLogger)).toMatchObject({ releases: 2, failed: 0, hashed: 0, hashedBytes: 0 });

    const { logger, lines } = recordingLogger();
    const registry = await loadDatasets(readConfig({ GEODATA_DATA_DIR: dir }), logger, LOADERS);
    try {
      const loaded = lines.filter((l) => l.msg === "dataset loaded");
      expect(loaded.map((l) => l.dataset).sort()).toEqual([...DATASETS]);
      for (const l of loaded) expect(l.check).toMatchObject({ hashed: 0, hashedBytes: 0 });
    } finally {
      await registry.close();
    }
  }, 120_000);

  it("logs a release whose file was damaged and goes on; the worker's own check refuses it", async () => {
    const station = path.join(releaseDirOf(dir, "stations", R1), "stations", "stations.duckdb");
    // A real copy, not the shared link, then one byte flipped in place.
    const bytes = await fs.readFile(station);
    await fs.rm(station);
    bytes[bytes.length >> 1] ^= 0xff;
    await fs.writeFile(station, bytes);

    const { logger, lines } = recordingLogger();
    const summary = await checkCurrentReleases(dir, logger);
    expect(summary).toMatchObject({ releases: 2, failed: 1 });
    const warning = lines.find((l) => l.msg === "release check failed before forking; the workers check it again");
    expect(warning).toMatchObject({ dataset: "stations", release: R1 });
    expect(String(warning!.reason)).toMatch(/stations\.duckdb/);
    expect(String(warning!.reason)).not.toContain(dir);

    const registry = await loadDatasets(readConfig({ GEODATA_DATA_DIR: dir }), silentLogger, LOADERS);
    try {
      const status = Object.fromEntries(registry.list().map((d) => [d.name, d.status]));
      expect(status).toMatchObject({ stations: "invalid", elevation: "ready" });
    } finally {
      await registry.close();
    }
  }, 120_000);
});

describe("the cluster primary", () => {
  let primary: ChildProcess | undefined;
  afterEach(() => {
    primary?.kill("SIGKILL");
  });

  it("checks new releases once before forking: its two workers hash nothing", async () => {
    let stderr = "";
    primary = startCluster({ GEODATA_DATA_DIR: dir, GEODATA_API_KEYS: "check-before-fork-key-0123456789" }, (d) => (stderr += d), () => undefined);
    await until(() => `all workers ready; stderr:\n${stderr.slice(-3000)}`, () => jsonLines(stderr).find((l) => l.msg === "all workers ready"), 90_000);
    const lines = jsonLines(stderr);
    // One progress line a dataset read, then the summary.
    expect(lines.filter((l) => l.msg === "release checked before forking").map((l) => l.dataset).sort()).toEqual([...DATASETS]);
    const checked = lines.find((l) => l.msg === "releases checked");
    expect(checked).toMatchObject({ releases: 2, failed: 0 });
    expect(checked!.hashed).toBeGreaterThan(0);
    const loaded = lines.filter((l) => l.msg === "dataset loaded");
    expect(loaded).toHaveLength(2 * DATASETS.length);
    for (const l of loaded) expect(l.check).toMatchObject({ hashed: 0 });
  }, 120_000);
});
