/**
 * A stations.idx answer that rots while the server serves it (bit rot keeps the file's size and
 * times), before the worker first reads it: the request that reads it answers 503 naming
 * stations (its CRC-32 fails), the fault is logged and the file hashed again and found damaged;
 * with no older release the dataset keeps serving what it can, `degraded` in /health, and the
 * other stations answer 200. Real data: the embedded default's stations release, copied (safe to
 * damage in place); the damage is one digit of 87582's answer text changed, at the offsets the
 * file's own table of contents gives.
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

/** Changes the last digit of the station's answer text (still JSON: only its CRC-32 tells), in place (size and inode kept). */
async function rotAnswer(file: string, kind: string, id: string): Promise<void> {
  const bytes = await fs.readFile(file);
  const { at, bytes: length } = layout(bytes).answerOf(kind, id);
  let digit = at + length - 1;
  while (bytes[digit]! < 0x30 || bytes[digit]! > 0x39) digit--;
  const handle = await fs.open(file, "r+");
  await handle.write(Buffer.from([bytes[digit] === 0x39 ? 0x38 : bytes[digit]! + 1]), 0, 1, digit);
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
    expect((await server.get("/weather/SYNOP/2/json?id=87576")).status).toBe(200);
    const idx = path.join(releaseDirOf(dir, "stations", R2), DATASETS.stations.servedFile!);
    await rotAnswer(idx, "SYNOP", "87582");

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
