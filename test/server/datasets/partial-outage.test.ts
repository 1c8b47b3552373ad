/**
 * A corrupt artifact makes only the endpoints that need it answer 503; the others keep serving.
 * Real artifacts of the embedded default (stations, elevation) are copied, then the elevation
 * index is damaged by one byte.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATASETS } from "../../../datasets/catalog.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";

let server: TestServer;
let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-outage-"));
  for (const name of ["stations", "elevation"] as const) {
    const sub = path.dirname(DATASETS[name].file);
    await fs.cp(path.join(await defaultDatasetDir(name), sub), path.join(dir, sub), { recursive: true });
  }
  const index = path.join(dir, DATASETS.elevation.file);
  const bytes = await fs.readFile(index);
  bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
  await fs.writeFile(index, bytes);
  server = await startTestServer({ dataDir: dir });
});

afterAll(async () => {
  await server?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe("one corrupt dataset", () => {
  it("is reported invalid by /health, the others ready", async () => {
    const body = (await (await server.get("/health", { key: null })).json()) as { content: { datasets: Array<{ name: string; status: string; message?: string }> } };
    const byName = Object.fromEntries(body.content.datasets.map((d) => [d.name, d]));
    expect(byName.elevation?.status).toBe("invalid");
    expect(byName.elevation?.message).toMatch(/CRC-32|expected/);
    expect(byName.stations?.status).toBe("ready");
  });

  it("makes its endpoints answer 503 naming it", async () => {
    const res = await server.get("/elevation/point/2/json?lat=0.5&lon=10.5");
    expect(res.status).toBe(503);
    const body = (await res.json()) as { status: string; code: number; message: string };
    expect(body).toMatchObject({ status: "error", code: 503 });
    expect(body.message).toContain("'elevation'");
  });

  it("leaves the other endpoints serving", async () => {
    const res = await server.get("/weather/METAR/2/json?id=KJFK");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; content: { METAR: { latest: { timestamp: number } | null } } };
    expect(body.status).toBe("OK");
    expect(body.content.METAR.latest?.timestamp).toBeGreaterThan(0);
  });
});
