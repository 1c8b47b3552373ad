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
  const built = await defaultDatasetDir("places");
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "places-corrupt-"));
  const bytes = await fs.readFile(path.join(built, DATASETS.places.file));
  bytes[bytes.byteLength - 100]! ^= 0xff; // one flipped bit pattern in the payload: the CRC must catch it
  await fs.mkdir(path.join(dir, "places"), { recursive: true });
  await fs.writeFile(path.join(dir, DATASETS.places.file), bytes);
  server = await startTestServer({ dataDir: dir });
});
afterAll(async () => {
  await server?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe("a corrupted places index", () => {
  it("makes the places endpoints answer 503 with the error body, and /health say why", async () => {
    for (const p of ["/geocode/search/2/json?q=Paris", "/geocode/id/2/json?id=gn:2950159"]) {
      const res = await server.get(p);
      expect(res.status, p).toBe(503);
      expect(await res.json()).toMatchObject({ status: "error", code: 503 });
    }
    const health = await (await server.get("/health", { key: null })).text();
    expect(health).toMatch(/CRC/);
  });

  it("still validates parameters first (400 before 503)", async () => {
    expect((await server.get("/geocode/id/2/json?id=nope")).status).toBe(400);
  });
});
