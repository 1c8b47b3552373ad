/**
 * A stations.idx block that rots while the server serves it (bit rot keeps the file's size and
 * times): the request that reads it answers 503 naming stations, the fault is logged and the file
 * hashed again and found damaged; with no older release the dataset keeps serving what it can,
 * `degraded` in /health, and the other stations answer 200. Real data: the embedded default's
 * stations release, copied (safe to damage in place); the damage is the wid column of 87582's
 * series block set past the string table, at the offsets the file's own table of contents gives.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATASETS } from "../../../datasets/catalog.ts";
import { releaseDirOf } from "../../../datasets/releases/layout.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { pointAt, writeManifest } from "../../helpers/releases.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { until } from "../../helpers/until.ts";
import { layout } from "../../datasets/stations/idx-layout.ts";

const R2 = "20261102T000000Z";

interface StationsHealth {
  status: string;
  release?: string;
  degraded?: { count: number; file?: string; check: string };
}

let dir: string;
let server: TestServer;

/** Sets the wid column of the station's block to 0xfefe, in place (size and inode kept). */
async function rotWids(file: string, kind: string, id: string): Promise<void> {
  const { at, count } = layout(await fs.readFile(file)).blockOf(kind, id);
  const handle = await fs.open(file, "r+");
  await handle.write(Buffer.alloc(2 * count, 0xfe), 0, 2 * count, at + 48 * count);
  await handle.close();
}

async function stationsHealth(): Promise<StationsHealth> {
  const body = (await (await server.get("/health", { key: null })).json()) as { content: { datasets: Array<StationsHealth & { name: string }> } };
  return body.content.datasets.find((d) => d.name === "stations")!;
}

beforeAll(async () => {
  const built = await defaultDatasetDir("stations");
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-stations-fault-"));
  await fs.cp(path.join(built, "stations"), path.join(releaseDirOf(dir, "stations", R2), "stations"), { recursive: true });
  await writeManifest(dir, "stations", R2);
  await pointAt(dir, "stations", R2);
  // No scrub: the request, not the scrub, is to find the damage.
  server = await startTestServer({ dataDir: dir, env: { GEODATA_RELEASE_POLL_MS: "0", GEODATA_SCRUB_PERIOD_HOURS: "0" } });
}, 600_000);

afterAll(async () => {
  await server?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe("a stations block damaged while serving", () => {
  it("answers 503 naming stations, finds the file damaged, and keeps serving the other stations, degraded", async () => {
    expect(await stationsHealth()).toMatchObject({ status: "ready", release: R2 });
    expect((await server.get("/weather/SYNOP/2/json?id=87582")).status).toBe(200);
    const idx = path.join(releaseDirOf(dir, "stations", R2), DATASETS.stations.servedFile!);
    await rotWids(idx, "SYNOP", "87582");

    const failed = await server.get("/weather/SYNOP/2/json?id=87582");
    expect(failed.status).toBe(503);
    expect(((await failed.json()) as { message: string }).message).toContain("'stations'");
    const health = await until("the check of stations.idx", async () => {
      const h = await stationsHealth();
      return h.degraded?.check === "damaged" ? h : undefined;
    });
    expect(health).toMatchObject({ status: "degraded", release: R2, degraded: { count: 1, file: `releases/stations/${R2}/${DATASETS.stations.servedFile}` } });
    expect((await server.get("/weather/METAR/2/json?id=KBED")).status).toBe(200);

    const logged = server.logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged.find((l) => l.msg === "dataset fault while serving; checking the file again")).toMatchObject({ level: "error", dataset: "stations", release: R2 });
    expect(logged.find((l) => l.msg === "file damaged on disk")).toMatchObject({ dataset: "stations", release: R2 });
  }, 120_000);
});
