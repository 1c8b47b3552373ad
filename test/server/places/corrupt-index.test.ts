/**
 * A damaged places index, from the outside (a real server on a release of the built embedded
 * default): a section table the reader refuses at open makes the places endpoints answer 503 and
 * /health say why (expected versus got); key blocks damaged in place while serving (bit rot: size
 * and times kept) make the searches that read them answer 503 naming places, the dataset turn
 * degraded in /health, while a lookup by id (which reads no key block) still answers.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEnvelopeHeader } from "../../../datasets/artifact/envelope.ts";
import { DATASETS } from "../../../datasets/catalog.ts";
import { Section } from "../../../datasets/places/index-format.ts";
import { releaseDirOf } from "../../../datasets/releases/layout.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { pointAt, writeManifest } from "../../helpers/releases.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { until } from "../../helpers/until.ts";

const RELEASE = "20261101T000000Z";
const spec = DATASETS.places;
let built: string;
const dirs: string[] = [];

interface PlacesHealth {
  status: string;
  degraded?: { count: number; reason: string };
}

/** A data directory with a places release of copies of the built files, `damage` applied to the index before its manifest is written. */
async function dataDirWith(damage: (bytes: Buffer) => void): Promise<{ dir: string; index: string }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "places-corrupt-"));
  dirs.push(dir);
  const release = releaseDirOf(dir, "places", RELEASE);
  await fs.mkdir(path.join(release, "places"), { recursive: true });
  const index = path.join(release, spec.file);
  const bytes = await fs.readFile(path.join(built, spec.file));
  damage(bytes);
  await fs.writeFile(index, bytes);
  await writeManifest(dir, "places", RELEASE);
  await pointAt(dir, "places", RELEASE);
  return { dir, index };
}

/** Where section `s` of the index lies in the file. */
function sectionOf(bytes: Buffer, s: number): { at: number; length: number } {
  const { payloadOffset } = readEnvelopeHeader(bytes, { magic: spec.magic, formatVersion: spec.formatVersion, file: spec.file });
  return { at: payloadOffset + bytes.readUInt32LE(payloadOffset + 4 + 8 * s), length: bytes.readUInt32LE(payloadOffset + 8 + 8 * s) };
}

async function placesHealth(server: TestServer): Promise<PlacesHealth> {
  const body = (await (await server.get("/health", { key: null })).json()) as { content: { datasets: Array<PlacesHealth & { name: string }> } };
  return body.content.datasets.find((d) => d.name === "places")!;
}

beforeAll(async () => {
  built = await defaultDatasetDir("places");
}, 600_000);
afterAll(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

describe("a damaged places index", () => {
  let server: TestServer | undefined;
  afterAll(async () => server?.close());

  it("refused at open: the places endpoints answer 503 with the error body, /health says why", async () => {
    const { dir } = await dataDirWith((bytes) => {
      const { payloadOffset } = readEnvelopeHeader(bytes, { magic: spec.magic, formatVersion: spec.formatVersion, file: spec.file });
      bytes.writeUInt32LE(7, payloadOffset); // the section count
    });
    server = await startTestServer({ dataDir: dir, env: { GEODATA_RELEASE_POLL_MS: "0", GEODATA_SCRUB_PERIOD_HOURS: "0" } });
    for (const p of ["/geocode/search/2/json?q=Paris", "/geocode/id/2/json?id=gn:2950159"]) {
      const res = await server.get(p);
      expect(res.status, p).toBe(503);
      expect(await res.json()).toMatchObject({ status: "error", code: 503 });
    }
    expect(JSON.stringify(await placesHealth(server))).toMatch(/expected 16 sections, got 7/);
    // Parameters are still validated first (400 before 503).
    expect((await server.get("/geocode/id/2/json?id=nope")).status).toBe(400);
    await server.close();
    server = undefined;
  }, 120_000);

  it("damaged while serving: the searches that read a damaged block answer 503 and places turns degraded", async () => {
    const { dir, index } = await dataDirWith(() => {});
    server = await startTestServer({ dataDir: dir, env: { GEODATA_RELEASE_POLL_MS: "0", GEODATA_SCRUB_PERIOD_HOURS: "0" } });
    expect((await server.get("/geocode/search/2/json?q=Paris")).status).toBe(200);
    // Every key block's count set to 0xFFFFFFFF in place (size and inode kept).
    const bytes = await fs.readFile(index);
    const blocks = sectionOf(bytes, Section.keyBlocks);
    const handle = await fs.open(index, "r+");
    const ff = Buffer.alloc(blocks.length, 0xff);
    await handle.write(ff, 0, ff.length, blocks.at);
    await handle.close();

    const res = await server.get("/geocode/search/2/json?q=Paris");
    expect(res.status).toBe(503);
    expect(((await res.json()) as { message: string }).message).toContain("'places'");
    const health = await until("places degraded", async () => {
      const h = await placesHealth(server!);
      return h.status === "degraded" ? h : undefined;
    });
    expect(health.degraded!.reason).toMatch(/keys block \d+: expected 1 to 32 keys/);
    // A lookup by id reads no key block.
    expect((await server.get("/geocode/id/2/json?id=gn:2950159")).status).toBe(200);
  }, 120_000);
});
