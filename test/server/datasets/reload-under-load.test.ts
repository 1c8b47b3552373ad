/**
 * A running server picks up new releases without a restart and without a failed request: under
 * a paced load of 700 requests per second over every endpoint, a places release built from
 * another real dump (cities15000 alone) is published by switching `current.txt` (picked up by the
 * pointer poll), the SIGHUP reload re-reads every dataset, and a corrupt stations release (the
 * real artifact cut short, listed as such in its release.json: its loader refuses it) is refused
 * while the old one keeps serving. Every request is counted.
 * The API keys file is re-read on the same reload.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { EMBEDDED_DIR } from "../../../datasets/common/paths.ts";
import { placesStep } from "../../../pipeline/places/step.ts";
import type { DatasetName } from "../../../datasets/catalog.ts";
import { releaseDirOf } from "../../../datasets/releases/layout.ts";
import type { ReloadOutcome } from "../../../server/datasets/reload.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { linkRelease, pointAt, writeManifest } from "../../helpers/releases.ts";
import { EVERY_ENDPOINT, startLoad, type LoadResult } from "../../helpers/load.ts";
import { startTestServer, TEST_KEY, type TestServer } from "../../helpers/server.ts";
import { until } from "../../helpers/until.ts";

const R1 = "20261101T000000Z";
const R2 = "20261102T000000Z";
const R3 = "20261103T000000Z";
/** Lines of cities15000.txt in the committed dump (`unzip -p cities15000.zip | wc -l`). */
const CITIES15000_ROWS = 32_847;
const FILE_KEY = "file-key-0123456789abcdef";
const NEW_FILE_KEY = "new-file-key-0123456789abcdef";

let dir: string;
let server: TestServer;

const publish = (dataset: DatasetName, id: string): Promise<void> => pointAt(dir, dataset, id);

async function health(): Promise<Record<string, { status: string; release?: string; counts?: Record<string, number>; refused?: { release: string; reason: string } }>> {
  const body = (await (await fetch(`${server.baseUrl}/health`)).json()) as { content: { datasets: Array<{ name: string }> } };
  return Object.fromEntries(body.content.datasets.map((d) => [d.name, d])) as never;
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-reload-"));
  // admin, elevation, forecast in the unreleased layout; places and stations as releases.
  for (const name of ["admin", "elevation", "forecast"] as const) await fs.symlink(path.join(await defaultDatasetDir(name), name), path.join(dir, name), "dir");
  for (const name of ["places", "stations"] as const) {
    await linkRelease(dir, name, R1, await defaultDatasetDir(name));
    await publish(name, R1);
  }
  // R2 of places: the places step on the committed cities15000 dump alone.
  const r2 = releaseDirOf(dir, "places", R2);
  const g = path.join(EMBEDDED_DIR, "geonames");
  await placesStep.run(
    ["--countries", path.join(g, "countryInfo.txt.gz"), "--admin1", path.join(g, "admin1CodesASCII.txt.gz"), "--places", path.join(g, "cities15000.zip"), "--duckdb-threads", "1"],
    { config: readConfig({ GEODATA_DATA_DIR: r2 }), logger: silentLogger },
  );
  await writeManifest(dir, "places", R2);
  // R3 of stations: the real files cut to a third, as its release.json lists them (a build that went wrong).
  await fs.mkdir(path.join(releaseDirOf(dir, "stations", R3), "stations"), { recursive: true });
  for (const name of ["stations.duckdb", "stations.idx"]) {
    const real = await fs.readFile(path.join(await defaultDatasetDir("stations"), "stations", name));
    await fs.writeFile(path.join(releaseDirOf(dir, "stations", R3), "stations", name), real.subarray(0, Math.floor(real.length / 3)));
  }
  await writeManifest(dir, "stations", R3);
  await fs.writeFile(path.join(dir, "keys.txt"), `# test keys\n${FILE_KEY}\n`);
  server = await startTestServer({ dataDir: dir, env: { GEODATA_RELEASE_POLL_MS: "200", GEODATA_API_KEYS_FILE: path.join(dir, "keys.txt"), GEODATA_REQUEST_TIMEOUT_MS: "2000" } });
}, 600_000);

afterAll(async () => {
  await server?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe("reload under load", () => {
  it("answers every request of a steady load over every endpoint with 200 through a pointer switch, a SIGHUP reload and a refused release", async () => {
    const before = await health();
    expect(before.places).toMatchObject({ status: "ready", release: R1 });
    expect(before.stations).toMatchObject({ status: "ready", release: R1 });
    expect(before.admin!.release).toBeUndefined();
    const springfieldBefore = (await (await server.get("/geocode/search/2/json?q=Springfield&limit=0")).json()) as { content: { total: number } };

    const paths = EVERY_ENDPOINT;
    // Each event happens with requests in flight: a few hundred answered before it and after it.
    const load = startLoad({ baseUrl: server.baseUrl, paths, headers: { "X-Api-Key": TEST_KEY }, ratePerS: 700 });
    let sighup: ReloadOutcome[] = [];
    let result: LoadResult;
    try {
      await load.answered(300);
      await publish("places", R2); // picked up by the pointer poll
      await until("the pointer poll to serve places R2", async () => (await health()).places?.release === R2);
      await load.answered(300);
      sighup = await server.service.reload(); // what SIGHUP runs
      await load.answered(300);
      await publish("stations", R3); // corrupt: refused
      await until("the pointer poll to refuse stations R3", async () => (await health()).stations?.refused?.release === R3);
      await load.answered(300);
    } finally {
      result = await load.stop();
    }

    // Every request sent was answered, every answer a 200, on every endpoint.
    expect(result.failures).toEqual([]);
    expect(result.byStatus).toEqual({ 200: result.sent });
    for (const p of paths) expect(Object.keys(result.byPath[p.split("?")[0]!] ?? {}), p).toEqual(["200"]);
    expect(sighup.map((o) => o.result)).toEqual(["swapped", "swapped", "swapped", "swapped", "swapped"]);

    const after = await health();
    expect(after.places).toMatchObject({ status: "ready", release: R2, counts: { places: CITIES15000_ROWS } });
    expect(after.stations).toMatchObject({ status: "ready", release: R1, refused: { release: R3 } });
    expect(after.stations!.refused!.reason).toContain("stations.idx, offset ");
    expect(after.stations!.refused!.reason).toContain("(truncated or padded file)");
    // The new places data answers: fewer Springfields in cities15000 than in cities500 + cities15000.
    const springfieldAfter = (await (await server.get("/geocode/search/2/json?q=Springfield&limit=0")).json()) as { content: { total: number } };
    expect(springfieldAfter.content.total).toBeLessThan(springfieldBefore.content.total);
    // Every replaced value holds a file handle (each dataset reads its files where they lie), closed
    // once the grace (GEODATA_REQUEST_TIMEOUT_MS, 2 s here) is over: places twice (R1 at the pointer
    // switch, R2 at the SIGHUP reload).
    const closed = (): string[] => server.logLines.filter((l) => l.includes('"old release closed"')).map((l) => (JSON.parse(l) as { dataset: string }).dataset);
    await until("the old admin, elevation, forecast, places and stations releases to be closed", () => closed().length >= 6);
    expect(closed().sort()).toEqual(["admin", "elevation", "forecast", "places", "places", "stations"]);
  }, 120_000);

  it("re-reads the API keys file on reload; a bad file keeps the keys in force", async () => {
    expect((await server.get("/geocode/id/2/json?id=gn:2950159", { key: FILE_KEY })).status).toBe(200);
    await fs.writeFile(path.join(dir, "keys.txt"), `${NEW_FILE_KEY}\n`);
    await server.service.reload();
    expect((await server.get("/geocode/id/2/json?id=gn:2950159", { key: NEW_FILE_KEY })).status).toBe(200);
    expect((await server.get("/geocode/id/2/json?id=gn:2950159", { key: FILE_KEY })).status).toBe(401);
    expect((await server.get("/geocode/id/2/json?id=gn:2950159")).status).toBe(200); // GEODATA_API_KEYS stay
    await fs.writeFile(path.join(dir, "keys.txt"), "short\n");
    await server.service.reload();
    expect((await server.get("/geocode/id/2/json?id=gn:2950159", { key: NEW_FILE_KEY })).status).toBe(200);
  }, 120_000);
});
